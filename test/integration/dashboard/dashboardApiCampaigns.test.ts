import { describe, expect, it } from 'vitest';
import { Dashboard } from '../../../worker/src/daemon/dashboard/dashboard';
import { openApiCampaignStore } from '../../../worker/src/storage/openApiCampaignStore';
import { openLedger } from '../../../worker/src/storage/openStores';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';

const cleanup = cleanupAfterEach();

const SETTINGS = { property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e', text: 'Hi' };
const PAGE = {
	page: 1,
	hash: 'h1',
	recipients: 1,
	columns: ['phone'],
	body: '[{"phone":"+61491570156"}]',
};

// The dashboard lists an API campaign as its status does: a draft, sending from its start,
// and failed where its record says so, whether or not its run had imported its rows.
describe.each(storeBackends())('API campaigns on the dashboard ($name)', (backend) => {
	it('shows each in the state the API gives it, failed ones too', async () => {
		const location = backend.location();
		const ledger = await openLedger(location);
		const api = await openApiCampaignStore(location, ledger);
		cleanup.push(
			() => api.close(),
			() => ledger.close(),
		);
		const spec = (name: string) => ({ name, csvPath: 'r', propertySid: 'PR1', text: 'Hi' });
		for (const name of ['idea', 'going', 'broken', 'refused']) {
			await api.create(name, SETTINGS, 1000);
			await api.putPage(name, PAGE, 1000);
		}
		for (const name of ['going', 'broken', 'refused'])
			expect(await api.start(name, spec(name), 2000)).toBe(true);
		// Its run imported a row, then stopped on a setting that cannot work.
		await ledger.importBatch(
			'broken',
			[{ line: 2, to: '+61491570156', text: 'Hi', segments: 1, status: 'pending' }],
			2,
		);
		expect(await api.end('broken', ['started'], 'failed', 3000, 'from: refused')).toBe(true);
		// Refused before its import: its run dropped the empty ledger campaign.
		expect(await api.end('refused', ['started'], 'failed', 3000, 'property: unknown')).toBe(true);
		await ledger.deleteCampaign('refused');

		const dashboard = new Dashboard({
			ledger,
			apiCampaigns: () => api.campaignsIn(['draft', 'failed']),
		});
		const rows = Object.fromEntries(
			(await dashboard.rows()).map((r) => [r.name, { phase: r.phase, why: r.why, open: r.open }]),
		);
		expect(rows).toEqual({
			idea: {
				phase: 'draft',
				why: 'made through the API, not started yet: its recipients may still come',
				open: false,
			},
			going: {
				phase: 'waiting',
				why: 'no worker runs it now: it goes on at its next run or resume',
				open: true,
			},
			broken: { phase: 'failed', why: 'failed: from: refused', open: false },
			refused: { phase: 'failed', why: 'failed: property: unknown', open: false },
		});
		const failed = await dashboard.rows({ phase: 'failed' });
		expect(failed.map((r) => [r.name, r.endedAt])).toEqual([
			['broken', new Date(3000).toISOString()],
			['refused', new Date(3000).toISOString()],
		]);
		expect(failed.find((r) => r.name === 'broken')?.pending).toBe(1);
	});
});

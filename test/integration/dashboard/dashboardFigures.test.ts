import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../../worker/src/daemon/dashboard/dashboard';
import { addFigures } from '../../../worker/src/daemon/dashboard/addFigures';
import { emptyFigures } from '../../../worker/src/storage/dashboardFigures';
import type { DashboardFigures, Ledger } from '../../../worker/src/storage/ledger';
import { openLedger } from '../../../worker/src/storage/openStores';
import { storeBackends } from '../../support/storeBackends';

/**
 * The dashboard's reads on both stores (Ledger.dashboardCampaigns, dashboardFigures): every
 * campaign's rows, receipts and replies counted in grouped statements, as its row shows them.
 */
let ledger: Ledger | undefined;
afterEach(async () => {
	await ledger?.close();
	ledger = undefined;
});

const to = (line: number) => `+6149157${String(line).padStart(4, '0')}`;

describe.each(storeBackends())('the dashboard on $name', (backend) => {
	it('counts each campaign as its row shows it: sent of to-send, receipts, replies, opt-outs, a guardrail pause; running first', async () => {
		ledger = await openLedger(backend.location());
		const spec = (name: string) => ({ name, csvPath: '/x.csv', propertySid: 'PR1', text: 'Hi' });
		await ledger.createCampaign(spec('braked'));
		await ledger.createCampaign(spec('done'));
		await ledger.importBatch(
			'braked',
			[
				...[2, 3, 4, 5, 6].map((line) => ({
					line,
					to: to(line),
					text: 'Hi',
					segments: 2,
					status: 'pending' as const,
				})),
				{ line: 7, segments: 0, status: 'invalid' as const, errorCode: 'INVALID_NUMBER' },
				{ line: 8, to: to(8), segments: 1, status: 'held' as const },
			],
			8,
		);
		await ledger.markSubmitting('braked', [2, 3, 4], 1);
		await ledger.settle('braked', 1, [
			{ line: 2, status: 'accepted', messageSid: 'SM-d2' },
			{ line: 3, status: 'accepted', messageSid: 'SM-d3' },
			{ line: 4, status: 'rejected', errorCode: 'INVALID_PHONENUMBER_FORMAT' },
		]);
		const at = Math.floor(Date.now() / 1000);
		await ledger.recordDelivery({
			messageSid: 'SM-d2',
			campaign: 'braked',
			line: 2,
			status: 'Delivered',
			at,
		});
		await ledger.recordDelivery({
			messageSid: 'SM-d3',
			campaign: 'braked',
			line: 3,
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at,
		});
		await ledger.recordReply({
			campaign: 'braked',
			line: 2,
			messageSid: 'IN-1',
			at: Date.now(),
			optOut: true,
		});
		await ledger.setPaused('braked', true, { by: 'failure-rate', detail: '2 of 3 failed' });
		await ledger.setPhase('done', 'finished');

		const figures = await ledger.dashboardFigures(['braked', 'done']);
		expect(figures.get('done')!.total).toBe(0);
		const f = figures.get('braked')!;
		expect(f).toMatchObject({
			total: 7,
			acceptedSegments: 4,
			delivered: 1,
			failed: 1,
			replied: 1,
			optedOut: 1,
			clicked: 0,
		});
		expect({ ...f.failedByCode }).toEqual({ UNDELIVERABLE: 1 });
		expect(f.rows).toMatchObject({ accepted: 2, rejected: 1, pending: 2, held: 1, invalid: 1 });
		expect(f.firstSentAt).toBeGreaterThan(0);
		// A big campaign is counted in parts of its lines (FiguresCache): lines 2-3, then 4 on.
		const inParts = emptyFigures();
		for (const lines of [
			{ after: 0, through: 3 },
			{ after: 3, through: 2_147_483_647 },
		])
			addFigures(inParts, (await ledger.dashboardFigures(['braked'], lines)).get('braked')!);
		const plain = (x: DashboardFigures) => ({ ...x, failedByCode: { ...x.failedByCode } });
		expect(plain(inParts)).toEqual(plain(f));
		expect(
			(await ledger.dashboardFigures(['braked'], { after: 0, through: 3 })).get('braked'),
		).toMatchObject({ total: 2, delivered: 1, failed: 1, replied: 1, optedOut: 1 });

		const rows = await new Dashboard({ ledger, pricePerSegment: 0.05 }).rows();
		expect(rows.map((r) => [r.name, r.phase])).toEqual([
			['braked', 'paused'],
			['done', 'finished'],
		]);
		expect(rows[0]).toMatchObject({
			why: 'paused by the failure-rate brake: 2 of 3 failed',
			sent: 3,
			toSend: 6,
			pending: 3,
			skipped: 1,
			delivered: 1,
			failed: 2,
			replied: 1,
			optedOut: 1,
			cost: 0.2,
			open: true,
			paused: true,
		});
		expect(rows[0].clicked).toBeUndefined();
		expect(rows[1].endedAt).toBeDefined();
		const filtered = await new Dashboard({ ledger }).rows({ phase: 'finished', q: 'DO' });
		expect(filtered.map((r) => r.name)).toEqual(['done']);
	});
});

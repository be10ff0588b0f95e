import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '../../../api';
import { openApiCampaignStore } from '../../../worker/src/storage/openApiCampaignStore';
import type { ApiCampaignStore, StoredPage } from '../../../worker/src/storage/apiCampaignStore';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';

const SETTINGS: CampaignSettings = {
	property: '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e',
	text: 'Hi {{first_name}}',
	receipts: true,
	replies: true,
};

function page(n: number, recipients: Record<string, unknown>[]): StoredPage {
	const body = JSON.stringify(recipients);
	return {
		page: n,
		hash: `h:${body}`,
		recipients: recipients.length,
		columns: [...new Set(recipients.flatMap((r) => Object.keys(r)))],
		body,
	};
}

const cleanup = cleanupAfterEach();

describe.each(storeBackends())('API campaign store ($name)', (backend) => {
	async function store(): Promise<ApiCampaignStore> {
		const s = await openApiCampaignStore(backend.location());
		cleanup.push(() => s.close());
		return s;
	}

	it('creates a campaign once and finds it by name', async () => {
		const s = await store();
		const first = await s.create('spring', SETTINGS, 1000);
		expect(first.created).toBe(true);
		expect(first.record).toEqual({
			name: 'spring',
			settings: SETTINGS,
			state: 'draft',
			createdAt: 1000,
		});
		const again = await s.create('spring', { ...SETTINGS, text: 'other' }, 2000);
		expect(again.created).toBe(false);
		expect(again.record.settings.text).toBe(SETTINGS.text);
		expect(await s.list()).toEqual([{ name: 'spring', state: 'draft' }]);
		expect(await s.campaign('autumn')).toBeUndefined();
	});

	it('stores pages idempotently by number, and refuses other content for a number', async () => {
		const s = await store();
		await s.create('spring', SETTINGS, 1000);
		const p2 = page(2, [{ phone: '+61491570102', first_name: 'Bo', vip: true }]);
		expect(await s.putPage('spring', p2, 1)).toEqual({
			outcome: 'stored',
			pages: 1,
			recipients: 1,
		});
		expect(
			await s.putPage('spring', page(1, [{ phone: '+61491570101' }, { phone: '+61491570103' }]), 2),
		).toEqual({ outcome: 'stored', pages: 2, recipients: 3 });
		expect(await s.putPage('spring', p2, 3)).toEqual({
			outcome: 'unchanged',
			pages: 2,
			recipients: 3,
		});
		expect(await s.putPage('spring', page(2, [{ phone: '+61491570109' }]), 4)).toEqual({
			outcome: 'page_conflict',
		});
		expect(await s.putPage('autumn', p2, 5)).toEqual({ outcome: 'not_found' });
		expect(await s.pageTotals('spring')).toEqual({ pages: [1, 2], recipients: 3 });
		expect(await s.pageColumns('spring')).toEqual([['phone'], ['phone', 'first_name', 'vip']]);
		expect((await s.pagesAfter('spring', 0, 1)).map((p) => p.page)).toEqual([1]);
		expect((await s.pagesAfter('spring', 1, 10)).map((p) => JSON.parse(p.body) as unknown)).toEqual(
			[[{ phone: '+61491570102', first_name: 'Bo', vip: true }]],
		);
		expect((await s.campaign('spring'))?.source).toBe('pages');
		expect(await s.putCsv('spring', 'csvhash', [], 6)).toEqual({
			outcome: 'other_source',
			source: 'pages',
		});
	});

	it('takes no page once started, and moves between states only from the states given', async () => {
		const s = await store();
		await s.create('spring', SETTINGS, 1000);
		await s.putPage('spring', page(1, [{ phone: '+61491570101' }]), 1);
		const spec = { name: 'spring', csvPath: 'r', propertySid: SETTINGS.property, text: 'Hi' };
		expect(await s.start('spring', spec, 5000)).toBe(true);
		expect(await s.start('spring', spec, 6000)).toBe(false);
		expect(await s.putPage('spring', page(2, [{ phone: '+61491570102' }]), 7)).toEqual({
			outcome: 'started',
		});
		expect(await s.pageTotals('spring')).toEqual({ pages: [1], recipients: 1 });
		expect((await s.campaignsIn(['draft'])).map((c) => c.name)).toEqual([]);
		expect((await s.campaignsIn(['draft', 'started'])).map((c) => c.name)).toEqual(['spring']);
		expect(await s.end('spring', ['finished'], 'failed', 8000)).toBe(false);
		expect(await s.end('spring', ['started'], 'failed', 9000, 'the property is gone')).toBe(true);
		expect(await s.campaign('spring')).toMatchObject({
			state: 'failed',
			startedAt: 5000,
			finishedAt: 9000,
			reason: 'the property is gone',
		});
		// At its end the pages go: the ledger has the recipients, and `contact forget` reaches them there.
		expect(await s.pageTotals('spring')).toEqual({ pages: [], recipients: 0 });
	});

	it('stores a CSV as pages in one go, the same CSV again unchanged, another refused', async () => {
		const s = await store();
		await s.create('csv', SETTINGS, 1000);
		const pages = [page(1, [{ Phone: '+61491570101' }]), page(2, [{ Phone: '+61491570102' }])];
		expect(await s.putCsv('csv', 'abc', pages, 1)).toEqual({
			outcome: 'stored',
			pages: 2,
			recipients: 2,
		});
		expect(await s.putCsv('csv', 'abc', pages, 2)).toEqual({
			outcome: 'unchanged',
			pages: 2,
			recipients: 2,
		});
		expect(await s.putCsv('csv', 'def', pages, 3)).toEqual({ outcome: 'page_conflict' });
		expect(await s.putPage('csv', page(3, [{ Phone: '+61491570103' }]), 4)).toEqual({
			outcome: 'other_source',
			source: 'csv',
		});
	});
});

import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dashboard } from '../../../../worker/src/daemon/dashboard/dashboard';
import { reportRoute } from '../../../../worker/src/daemon/http/reportRoutes';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import { tempDir } from '../../../support/tempDir';

const TOKEN = 'report-token-abcdefghijkl';
let ledger: SqliteLedger;

beforeAll(async () => {
	ledger = new SqliteLedger(join(tempDir('cloudtel-routes-'), 'l.db'));
	for (const name of [
		'promo.json',
		'spring',
		'weekly-20261127T220900Z',
		'weekly-20261204T220900Z',
	]) {
		await ledger.createCampaign({ name, csvPath: '/x.csv', propertySid: 'PR1', text: 'Hi' });
		await ledger.importBatch(
			name,
			[{ line: 2, to: '+61491570156', text: 'Hi', segments: 1, status: 'pending' }],
			2,
		);
	}
});
afterAll(async () => ledger?.close());

const get = (path: string, accept = '*/*') =>
	reportRoute(
		{
			method: 'GET',
			headers: { authorization: `Bearer ${TOKEN}`, accept },
		} as unknown as IncomingMessage,
		new URL(`http://worker${path}`),
		{ tokens: { report: TOKEN } },
		ledger,
		new Dashboard({ ledger }),
	);

describe('report routes', () => {
	it('serve any valid campaign name, one ending in .json too', async () => {
		// (Its HTML page loads the chart module from the build: the browser test reads pages.)
		const asJson = await get('/campaigns/promo.json.json');
		expect(asJson?.status).toBe(200);
		expect((JSON.parse(asJson!.body) as { campaign: string }).campaign).toBe('promo.json');
		const accepted = await get('/campaigns/promo.json', 'application/json');
		expect((JSON.parse(accepted!.body) as { campaign: string }).campaign).toBe('promo.json');
	});

	it("serve a config campaign's latest run by the campaign's name", async () => {
		const latest = await get('/campaigns/weekly.json');
		expect(latest?.status).toBe(200);
		expect((JSON.parse(latest!.body) as { campaign: string }).campaign).toBe(
			'weekly-20261204T220900Z',
		);
		expect((await get('/campaigns/week.json'))?.status).toBe(404);
	});

	it("show costs at the config's price, in its currency", async () => {
		const priced = await reportRoute(
			{
				method: 'GET',
				headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
			} as unknown as IncomingMessage,
			new URL('http://worker/campaigns/spring'),
			{ tokens: { report: TOKEN } },
			ledger,
			new Dashboard({ ledger }),
			undefined,
			{ pricePerSegment: 0.05, currency: 'AUD' },
		);
		expect(JSON.parse(priced!.body)).toMatchObject({
			segments: { pricePerSegment: 0.05, currency: 'AUD' },
		});
	});

	it("keep NAME.json as NAME's JSON, and list every campaign", async () => {
		const spring = await get('/campaigns/spring.json');
		expect(spring?.type).toBe('application/json');
		expect((JSON.parse(spring!.body) as { campaign: string }).campaign).toBe('spring');
		const list = await get('/campaigns.json');
		const listed = (
			JSON.parse(list!.body) as { campaigns: { name: string; report: string }[] }
		).campaigns
			.map((c) => ({ name: c.name, report: c.report }))
			.sort((a, b) => a.name.localeCompare(b.name));
		expect(listed).toEqual([
			{ name: 'promo.json', report: '/campaigns/promo.json' },
			{ name: 'spring', report: '/campaigns/spring' },
			{ name: 'weekly-20261127T220900Z', report: '/campaigns/weekly-20261127T220900Z' },
			{ name: 'weekly-20261204T220900Z', report: '/campaigns/weekly-20261204T220900Z' },
		]);
		expect((await get('/campaigns/nope.json'))?.status).toBe(404);
		expect(await get('/campaignsx')).toBeUndefined();
	});
});

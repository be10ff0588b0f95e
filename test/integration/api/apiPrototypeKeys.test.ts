import { describe, expect, it } from 'vitest';
import { recipientRows } from '../../../worker/src/daemon/api/recipientRows';
import type {
	ApiCampaignRecord,
	ApiCampaignStore,
} from '../../../worker/src/storage/apiCampaignStore';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();
const sqlite = storeBackends().filter((b) => b.name === 'sqlite');

/**
 * Page 1 with a column `constructor`, page 2 without: a recipient of page 2 was sent
 * `Hi [function Object() { [native code] }]`, the member every JavaScript object has.
 */
describe.each(sqlite)(
	'recipient columns named after Object.prototype members ($name)',
	(backend) => {
		it('are refused, naming the field; what pages already hold is read by own keys only', async () => {
			const api = await ApiUnderTest.startWithSandbox(backend, cleanup);
			expect(
				(
					await api.call('PUT', '/api/campaigns/proto', {
						property: api.sandbox.demo.PropertySid,
						text: 'Hi {{constructor}}',
					})
				).status,
			).toBe(201);
			for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
				// As sent on the wire: a JSON.stringify of an object would drop `__proto__`.
				const answer = await api.call(
					'PUT',
					'/api/campaigns/proto/pages/1',
					`{"recipients":[{"phone":"+61491570101","${key}":"C"}]}`,
					{ 'content-type': 'application/json' },
				);
				expect(answer.status, key).toBe(400);
				expect(answer.body.error.problems, key).toEqual([
					{
						field: `recipients[0].${key}`,
						message: expect.stringMatching(
							new RegExp(
								`has a column named "${key}", the name of a member of every JavaScript object`,
							),
						),
					},
				]);
			}
		});
	},
);

describe('the rows read from pages', () => {
	it('gives a recipient without a column an empty cell, never an inherited member', async () => {
		const pages = [
			JSON.stringify([{ phone: '+61491570101', constructor: 'C' }]),
			JSON.stringify([{ phone: '+61491570102' }]),
		];
		const store = {
			pageColumns: async () => [['phone', 'constructor'], ['phone']],
			pageTotals: async () => ({ pages: [1, 2], recipients: 2 }),
			pagesAfter: async (_name: string, after: number) =>
				after === 0 ? pages.map((body, i) => ({ page: i + 1, body })) : [],
		} as unknown as ApiCampaignStore;
		const record = { name: 'proto', source: 'pages', settings: {} } as ApiCampaignRecord;
		const csv = await recipientRows(store, record)();
		expect(csv.header).toEqual(['phone', 'constructor']);
		const items = [];
		for await (const batch of csv.batches) items.push(...batch.items);
		expect(items).toEqual([
			{ line: 2, fields: ['+61491570101', 'C'] },
			{ line: 3, fields: ['+61491570102', ''] },
		]);
	});
});

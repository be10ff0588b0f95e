import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

const backends = storeBackends();

/** Lines 2-4 sent and accepted as SM-2..SM-4; line 5 uncertain; line 6 on its way; line 7 never sent. */
async function ledgerAt(backend: (typeof backends)[number]): Promise<Ledger> {
	const ledger = await openLedger(backend.location());
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(
		'c1',
		[2, 3, 4, 5, 6, 7].map((line) => ({
			line,
			to: `+6149157010${line}`,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		7,
	);
	await ledger.markSubmitting('c1', [2, 3, 4, 5], 1);
	await ledger.settle('c1', 1, [
		...[2, 3, 4].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
		{ line: 5, status: 'uncertain' as const, message: 'the answer was lost' },
	]);
	await ledger.markSubmitting('c1', [6], 2);
	return ledger;
}

describe.each(backends)('ledger ($name): what a forged callback can change', (backend) => {
	it("a receipt changes a row only with the row's MessageSid, or one whose MessageSid is not known yet", async () => {
		const ledger = await ledgerAt(backend);
		const receipt = {
			campaign: 'c1',
			status: 'Failed' as const,
			errorCode: 'FORGED',
			at: 1_700_000_000,
		};
		// The ExternalId names a row whose message is another.
		expect(
			await ledger.recordDelivery({ ...receipt, messageSid: 'SM-unknown', line: 2 }),
		).toBeUndefined();
		expect(
			await ledger.recordDelivery({ ...receipt, messageSid: 'SM-unknown', line: 7 }),
		).toBeUndefined();
		expect(await ledger.delivery('c1', 2)).toBeUndefined();
		// A real MessageSid with another row's ExternalId lands on its own row.
		expect(await ledger.recordDelivery({ ...receipt, messageSid: 'SM-3', line: 2 })).toEqual({
			campaign: 'c1',
			line: 3,
			resolved: false,
		});
		expect(await ledger.delivery('c1', 2)).toBeUndefined();
		// The uncertain row, and the one on its way, take their first receipt through the ExternalId.
		expect(
			await ledger.recordDelivery({ ...receipt, status: 'Delivered', messageSid: 'SM-5', line: 5 }),
		).toEqual({ campaign: 'c1', line: 5, resolved: true });
		expect(
			await ledger.recordDelivery({ ...receipt, status: 'Delivered', messageSid: 'SM-6', line: 6 }),
		).toEqual({ campaign: 'c1', line: 6, resolved: false });
		// Once resolved, the row is SM-5's: another MessageSid cannot rewrite it.
		expect(
			await ledger.recordDelivery({ ...receipt, messageSid: 'SM-other', line: 5 }),
		).toBeUndefined();
		expect(await ledger.delivery('c1', 5)).toMatchObject({
			messageSid: 'SM-5',
			status: 'Delivered',
		});
		await ledger.close();
	});

	it('a receipt taken while its row was on its way is dropped when the answer gives another MessageSid, kept when the same', async () => {
		const ledger = await ledgerAt(backend);
		expect(
			await ledger.recordDelivery({
				campaign: 'c1',
				line: 6,
				messageSid: 'SM-forged',
				status: 'Failed',
				errorCode: 'FORGED',
				at: 1,
			}),
		).toEqual({ campaign: 'c1', line: 6, resolved: false });
		await ledger.settle('c1', 2, [{ line: 6, status: 'accepted', messageSid: 'SM-6' }]);
		expect(await ledger.delivery('c1', 6)).toBeUndefined();
		expect(await ledger.deliveryCounts('c1')).toMatchObject({ failed: 0, awaitingReceipt: 4 });

		await ledger.markSubmitting('c1', [7], 3);
		await ledger.recordDelivery({
			campaign: 'c1',
			line: 7,
			messageSid: 'SM-7',
			status: 'Delivered',
			at: 2,
		});
		await ledger.settle('c1', 3, [{ line: 7, status: 'accepted', messageSid: 'SM-7' }]);
		expect(await ledger.delivery('c1', 7)).toMatchObject({
			messageSid: 'SM-7',
			status: 'Delivered',
		});
		await ledger.close();
	});

	it('knows which number each message it sent went to: a START is checked against it', async () => {
		const ledger = await ledgerAt(backend);
		expect(await ledger.sentTo('SM-3')).toBe('+61491570103');
		expect(await ledger.sentTo('SM-nobody')).toBeUndefined();
		// A row a receipt resolved is known by that receipt's MessageSid.
		await ledger.recordDelivery({
			campaign: 'c1',
			line: 5,
			messageSid: 'SM-5',
			status: 'Delivered',
			at: 1,
		});
		expect(await ledger.sentTo('SM-5')).toBe('+61491570105');
		await ledger.close();
	});

	it('counts failures by ErrorCode whatever the code: __proto__, constructor, toString too', async () => {
		const ledger = await ledgerAt(backend);
		for (const [line, code] of [
			[2, '__proto__'],
			[3, 'constructor'],
			[4, 'toString'],
		] as const) {
			await ledger.recordDelivery({
				campaign: 'c1',
				line,
				messageSid: `SM-${line}`,
				status: 'Failed',
				errorCode: code,
				at: 1,
			});
		}
		const counts = await ledger.deliveryCounts('c1');
		expect(Object.entries(counts.failedByCode).sort()).toEqual([
			['__proto__', 1],
			['constructor', 1],
			['toString', 1],
		]);
		expect(JSON.parse(JSON.stringify(counts)).failedByCode).toEqual(
			JSON.parse('{"__proto__": 1, "constructor": 1, "toString": 1}'),
		);
		await ledger.close();
	});
});

import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import type { DbLocation } from '../../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

const backends = storeBackends();

async function ledgerWithRows(lines: number[], where: DbLocation | string): Promise<Ledger> {
	const ledger = typeof where === 'string' ? new SqliteLedger(where) : await openLedger(where);
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(
		'c1',
		lines.map((line) => ({
			line,
			to: `+614915701${String(line).padStart(2, '0')}`,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		Math.max(...lines),
	);
	return ledger;
}

async function statuses(ledger: Ledger): Promise<Record<number, string>> {
	const out: Record<number, string> = {};
	for await (const r of ledger.rows('c1')) out[r.line] = r.status;
	return out;
}

describe.each(backends)('ledger ($name): marking a chunk submitting', (backend) => {
	it('marks exactly the lines of the chunk', async () => {
		const ledger = await ledgerWithRows([2, 3, 5, 6, 7], backend.location());
		await ledger.markSubmitting('c1', [2, 3, 5], 1);
		expect(await statuses(ledger)).toEqual({
			2: 'submitting',
			3: 'submitting',
			5: 'submitting',
			6: 'pending',
			7: 'pending',
		});
		await ledger.close();
	});

	it('marks nothing when a line is no longer pending, even with another pending row in its range', async () => {
		const ledger = await ledgerWithRows([2, 3, 4, 5], backend.location());
		await ledger.markSubmitting('c1', [3], 1);
		// Line 3 is taken: lines 2 to 5 still hold three pending rows, but 4 is not in the chunk.
		await expect(ledger.markSubmitting('c1', [2, 3, 5], 2)).rejects.toThrow(
			/row 3 of c1 is no longer pending/,
		);
		expect(await statuses(ledger)).toEqual({
			2: 'pending',
			3: 'submitting',
			4: 'pending',
			5: 'pending',
		});
		await ledger.close();
	});

	it('marks nothing over a range another chunk is submitting', async () => {
		const ledger = await ledgerWithRows([2, 3, 4, 5], backend.location());
		await ledger.markSubmitting('c1', [4, 5], 1);
		await expect(ledger.markSubmitting('c1', [2, 3, 4, 5], 2)).rejects.toThrow(
			/row 4 of c1 is no longer pending/,
		);
		expect((await ledger.counts('c1')).rows).toMatchObject({ pending: 2, submitting: 2 });
		await ledger.close();
	});

	it('settles a chunk in one step: its rows take their answers and are no longer submitting', async () => {
		const ledger = await ledgerWithRows([2, 3, 4], backend.location());
		await ledger.markSubmitting('c1', [2, 3], 7);
		await ledger.settle('c1', 7, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'rejected', errorCode: 'INVALID_PHONENUMBER_FORMAT', message: 'bad' },
		]);
		expect(await statuses(ledger)).toEqual({ 2: 'accepted', 3: 'rejected', 4: 'pending' });
		expect((await ledger.counts('c1')).rows).toMatchObject({
			accepted: 1,
			rejected: 1,
			pending: 1,
			submitting: 0,
		});
		// Nothing is left to recover.
		expect(await ledger.recoverSubmitting('c1')).toBe(0);
		await ledger.close();
	});

	it('a chunk answered "pending" (refused) goes back to pending and can be marked again', async () => {
		const ledger = await ledgerWithRows([2, 3], backend.location());
		await ledger.markSubmitting('c1', [2, 3], 1);
		await ledger.settle('c1', 1, [
			{ line: 2, status: 'pending' },
			{ line: 3, status: 'pending' },
		]);
		expect(await statuses(ledger)).toEqual({ 2: 'pending', 3: 'pending' });
		await ledger.markSubmitting('c1', [2, 3], 2);
		expect(await statuses(ledger)).toEqual({ 2: 'submitting', 3: 'submitting' });
		await ledger.close();
	});

	it('after a crash, the rows of every chunk still submitting become uncertain, and no other row does', async () => {
		const first = await ledgerWithRows([2, 3, 4, 5, 6], backend.location());
		await first.markSubmitting('c1', [2, 3], 1);
		await first.markSubmitting('c1', [5], 2);
		// The process dies here: no settle, no close.
		const again = await openLedger(backend.location());
		expect(await again.recoverSubmitting('c1')).toBe(3);
		expect(await statuses(again)).toEqual({
			2: 'uncertain',
			3: 'uncertain',
			4: 'pending',
			5: 'uncertain',
			6: 'pending',
		});
		expect((await again.counts('c1')).rows).toMatchObject({
			uncertain: 3,
			pending: 2,
			submitting: 0,
		});
		await first.close();
		await again.close();
	});

	it('cancelling leaves a submitting chunk to its answer', async () => {
		const ledger = await ledgerWithRows([2, 3, 4], backend.location());
		await ledger.markSubmitting('c1', [2, 3], 1);
		expect(await ledger.cancelPending('c1')).toBe(1);
		expect(await statuses(ledger)).toEqual({ 2: 'submitting', 3: 'submitting', 4: 'cancelled' });
		await ledger.settle('c1', 1, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'accepted', messageSid: 'SM3' },
		]);
		expect(await statuses(ledger)).toEqual({ 2: 'accepted', 3: 'accepted', 4: 'cancelled' });
		await ledger.close();
	});

	it('puts back to pending only the uncertain rows whose message starts with one given, read literally', async () => {
		const ledger = await ledgerWithRows([2, 3, 4, 5], backend.location());
		await ledger.markSubmitting('c1', [2, 3, 4, 5], 1);
		await ledger.settle('c1', 1, [
			{ line: 2, status: 'uncertain', message: 'answer lost: connect ECONNREFUSED 127.0.0.1:9' },
			{ line: 3, status: 'uncertain', message: 'answer lost: socket hang up' },
			{ line: 4, status: 'uncertain', message: 'answer lost: getaddrinfo ENOTFOUND x_y' },
			{ line: 5, status: 'uncertain', message: 'answer lost: getaddrinfo ENOTFOUND xzy' },
		]);
		expect(
			await ledger.requeueUncertainWith('c1', [
				'answer lost: connect ECONNREFUSED',
				'answer lost: getaddrinfo ENOTFOUND x_',
			]),
		).toBe(2);
		expect(await statuses(ledger)).toEqual({
			2: 'pending',
			3: 'uncertain',
			4: 'pending',
			5: 'uncertain',
		});
		await ledger.close();
	});

	it('peeks pending rows after a line, in line order, skipping rows that are not pending', async () => {
		const ledger = await ledgerWithRows([2, 3, 4, 5, 6, 7], backend.location());
		await ledger.markSubmitting('c1', [2, 3], 1);
		await ledger.settle('c1', 1, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'accepted', messageSid: 'SM3' },
		]);
		expect((await ledger.peekPending('c1', 2)).map((r) => r.line)).toEqual([4, 5]);
		expect((await ledger.peekPending('c1', 10, 5)).map((r) => r.line)).toEqual([6, 7]);
		expect(await ledger.peekPending('c1', 10, 7)).toEqual([]);
		await ledger.close();
	});

	it('flags at send time the rows whose number joined the suppression list after the import, and only those', async () => {
		const ledger = await ledgerWithRows([2, 3, 4], backend.location());
		expect((await ledger.peekPending('c1', 10)).map((r) => r.suppressed)).toEqual([
			false,
			false,
			false,
		]);
		await ledger.addSuppression('+61491570103', 'STOP');
		expect((await ledger.peekPending('c1', 10)).map((r) => [r.line, r.suppressed])).toEqual([
			[2, false],
			[3, true],
			[4, false],
		]);
		await ledger.removeSuppression('+61491570103');
		expect((await ledger.peekPending('c1', 10)).map((r) => r.suppressed)).toEqual([
			false,
			false,
			false,
		]);
		await ledger.close();
	});

	it('lists submitting rows by status, as it counts them', async () => {
		const ledger = await ledgerWithRows([2, 3, 4], backend.location());
		await ledger.markSubmitting('c1', [3, 4], 1);
		const lines: number[] = [];
		for await (const r of ledger.rows('c1', ['submitting'])) lines.push(r.line);
		expect(lines).toEqual([3, 4]);
		const pending: number[] = [];
		for await (const r of ledger.rows('c1', ['pending'])) pending.push(r.line);
		expect(pending).toEqual([2]);
		await ledger.close();
	});
});

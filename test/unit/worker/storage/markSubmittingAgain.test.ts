import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';

// A Postgres restarting may commit a chunk's submitting mark and lose the answer with the
// connection; the ledger makes the call again once the database answers. That second call
// used to be refused ("already being submitted"): the chunk was never sent, and its rows,
// left submitting, became uncertain at the next run although they never left.

const open: Ledger[] = [];
afterEach(async () => {
	for (const l of open.splice(0)) await l.close();
});

describe.each(storeBackends())('a submitting mark made again ($name)', (backend) => {
	it('stands when it is the same chunk; another chunk over its rows is still refused', async () => {
		const ledger = await openLedger(backend.location());
		open.push(ledger);
		await ledger.createCampaign({
			name: 'c1',
			csvPath: '/list.csv',
			propertySid: 'PR1',
			text: 'Hi',
		});
		await ledger.importBatch(
			'c1',
			[2, 3, 4].map((line) => ({
				line,
				to: `+6149157015${line}`,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			4,
		);
		const chunk = Date.now();
		await (
			await ledger.markSubmittingCommitted('c1', [2, 3], chunk)
		).durable;
		// The same call again, as after a commit whose answer was lost.
		await (
			await ledger.markSubmittingCommitted('c1', [2, 3], chunk)
		).durable;
		expect((await ledger.counts('c1')).rows).toMatchObject({ submitting: 2, pending: 1 });
		await expect(ledger.markSubmittingCommitted('c1', [2, 3], chunk + 1)).rejects.toThrow(
			/row 2 of c1 is no longer pending/,
		);
		await expect(ledger.markSubmittingCommitted('c1', [2, 3, 4], chunk)).rejects.toThrow();
		await ledger.settle('c1', chunk, [
			{ line: 2, status: 'accepted', messageSid: 'SM2' },
			{ line: 3, status: 'accepted', messageSid: 'SM3' },
		]);
		expect((await ledger.counts('c1')).rows).toMatchObject({
			submitting: 0,
			accepted: 2,
			pending: 1,
		});
	});
});

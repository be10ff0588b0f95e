import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/ledger/sqliteLedger';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function ledgerWithRows(lines: number[]): Promise<SqliteLedger> {
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-submit-'));
	dirs.push(dir);
	const ledger = new SqliteLedger(join(dir, 'ledger.db'));
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch('c1', lines.map((line) => ({ line, to: `+614915701${String(line).padStart(2, '0')}`, text: 'Hi', segments: 1, status: 'pending' as const })), Math.max(...lines));
	return ledger;
}

async function statuses(ledger: SqliteLedger): Promise<Record<number, string>> {
	const out: Record<number, string> = {};
	for await (const r of ledger.rows('c1')) out[r.line] = r.status;
	return out;
}

describe('ledger: marking a chunk submitting', () => {
	it('marks exactly the lines of the chunk', async () => {
		const ledger = await ledgerWithRows([2, 3, 5, 6, 7]);
		await ledger.markSubmitting('c1', [2, 3, 5], 1);
		expect(await statuses(ledger)).toEqual({ 2: 'submitting', 3: 'submitting', 5: 'submitting', 6: 'pending', 7: 'pending' });
		await ledger.close();
	});

	it('marks nothing when a line is no longer pending, even with another pending row in its range', async () => {
		const ledger = await ledgerWithRows([2, 3, 4, 5]);
		await ledger.markSubmitting('c1', [3], 1);
		// Line 3 is taken: lines 2 to 5 still hold three pending rows, but 4 is not in the chunk.
		await expect(ledger.markSubmitting('c1', [2, 3, 5], 2)).rejects.toThrow(/row 3 of c1 is no longer pending/);
		expect(await statuses(ledger)).toEqual({ 2: 'pending', 3: 'submitting', 4: 'pending', 5: 'pending' });
		await ledger.close();
	});
});

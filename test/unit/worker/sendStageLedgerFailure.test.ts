import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendStage } from '../../../worker/src/campaign/sendStage';
import { SqliteLedger } from '../../../worker/src/ledger/sqliteLedger';
import { TokenBucket } from '../../../worker/src/pacing/tokenBucket';
import type { BatchClient } from '../../../worker/src/provider/batchClient';
import type { Reporter } from '../../../worker/src/report/reporter';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A ledger whose disk refuses every write of a `submitting` mark, as a full disk would. */
class FullDiskLedger extends SqliteLedger {
	marks = 0;
	override async markSubmitting(): Promise<void> {
		this.marks++;
		throw new Error('SQLITE_FULL: database or disk is full');
	}
}

const silent: Reporter = { event: () => undefined, rowError: () => undefined, progress: () => undefined, summary: () => undefined, close: () => undefined };

describe('send stage: a ledger that cannot record submitting', () => {
	it('ends the run with a fatal error after a few refusals, sends nothing and leaves every row pending', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'cloudtel-full-'));
		dirs.push(dir);
		const ledger = new FullDiskLedger(join(dir, 'ledger.db'));
		await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
		await ledger.importBatch('c1', [2, 3, 4].map((line) => ({ line, to: `+6149157015${line}`, text: 'Hi', segments: 1, status: 'pending' as const })), 4);
		let requests = 0;
		const client = { send: async () => (requests++, { kind: 'answered', results: [] }) } as unknown as BatchClient;
		const result = await sendStage({
			campaign: 'c1',
			propertySid: 'PR1',
			timing: {},
			ledger,
			client,
			bucket: new TokenBucket(0, 2),
			chunkSize: 2,
			concurrency: 2,
			total: 3,
			reporter: silent,
			controlPollMs: 0,
		});
		expect(result.stop).toBe('failed');
		expect(result.fatal?.message).toMatch(/could not record rows as submitting: SQLITE_FULL/);
		expect(ledger.marks).toBe(5);
		expect(requests).toBe(0);
		expect((await ledger.counts('c1')).rows).toMatchObject({ pending: 3, submitting: 0, accepted: 0 });
		await ledger.close();
	});
});

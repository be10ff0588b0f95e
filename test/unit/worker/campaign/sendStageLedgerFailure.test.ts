import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendStage } from '../../../../worker/src/campaign/sendStage';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import { TokenBucket } from '../../../../worker/src/pacing/tokenBucket';
import type { BatchClient } from '../../../../worker/src/provider/batchClient';
import { SilentReporter } from '../../../../worker/src/daemon/api/silentReporter';
import { tempDir } from '../../../support/tempDir';

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
	override async markSubmittingCommitted(): Promise<{ durable: Promise<void> }> {
		this.marks++;
		throw new Error('SQLITE_FULL: database or disk is full');
	}
}

/** A ledger whose marks commit, but whose disk takes its time with them, or fails to take them. */
class SlowDiskLedger extends SqliteLedger {
	committed = 0;
	onDisk = 0;
	constructor(
		path: string,
		private readonly fsync: () => Promise<void>,
	) {
		super(path);
	}
	override async markSubmittingCommitted(
		name: string,
		lines: number[],
		chunk: number,
	): Promise<{ durable: Promise<void> }> {
		const { durable } = await super.markSubmittingCommitted(name, lines, chunk);
		this.committed++;
		return { durable: durable.then(this.fsync).then(() => void this.onDisk++) };
	}
}

async function ledgerIn(make: (path: string) => SqliteLedger): Promise<SqliteLedger> {
	const dir = tempDir('cloudtel-full-');
	dirs.push(dir);
	const ledger = make(join(dir, 'ledger.db'));
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
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
	return ledger;
}

const stageOf = (ledger: SqliteLedger, client: BatchClient) => ({
	campaign: 'c1',
	propertySid: 'PR1',
	timing: {},
	ledger,
	client,
	bucket: new TokenBucket(0, 2),
	chunkSize: 2,
	concurrency: 2,
	total: 3,
	reporter: new SilentReporter(),
	controlPollMs: 0,
});

describe('send stage: each request after its submitting mark is on disk', () => {
	it('ends the run with a fatal error after a few refusals, sends nothing and leaves every row pending', async () => {
		const ledger = (await ledgerIn((path) => new FullDiskLedger(path))) as FullDiskLedger;
		let requests = 0;
		const client = {
			send: async () => (requests++, { kind: 'answered', results: [] }),
		} as unknown as BatchClient;
		const result = await sendStage(stageOf(ledger, client));
		expect(result.stop).toBe('failed');
		expect(result.fatal?.message).toMatch(/could not record rows as submitting: SQLITE_FULL/);
		expect(ledger.marks).toBe(5);
		expect(requests).toBe(0);
		expect((await ledger.counts('c1')).rows).toMatchObject({
			pending: 3,
			submitting: 0,
			accepted: 0,
		});
		await ledger.close();
	});

	it('sends no request before its submitting mark is on disk, yet marks the next chunk meanwhile', async () => {
		const ledger = (await ledgerIn(
			(path) => new SlowDiskLedger(path, () => new Promise((r) => setTimeout(r, 30))),
		)) as SlowDiskLedger;
		const atSend: [committed: number, onDisk: number][] = [];
		const client = {
			send: async (_: string, messages: { ExternalId: string }[]) => {
				atSend.push([ledger.committed, ledger.onDisk]);
				return {
					kind: 'answered',
					results: messages.map((m, i) => ({
						MessageSid: `SM${m.ExternalId}${i}`,
						ExternalId: m.ExternalId,
					})),
				};
			},
		} as unknown as BatchClient;
		const result = await sendStage(stageOf(ledger, client));
		expect(result.stop).toBe('finished');
		// The second chunk was marked while the first one's mark went to disk; each request left after its own mark was there.
		expect(atSend).toEqual([
			[2, 1],
			[2, 2],
		]);
		expect((await ledger.counts('c1')).rows).toMatchObject({
			accepted: 3,
			pending: 0,
			submitting: 0,
		});
		await ledger.close();
	});

	it('sends nothing of a chunk whose mark could not reach the disk: its rows are pending again and the run stops, naming the cause', async () => {
		const ledger = await ledgerIn(
			(path) => new SlowDiskLedger(path, () => Promise.reject(new Error('EIO: i/o error, fsync'))),
		);
		let requests = 0;
		const client = {
			send: async () => (requests++, { kind: 'answered', results: [] }),
		} as unknown as BatchClient;
		const result = await sendStage(stageOf(ledger, client));
		expect(result.stop).toBe('failed');
		expect(result.fatal?.message).toMatch(
			/could not write the rows being submitted to disk: EIO: i\/o error, fsync; nothing of them was sent/,
		);
		expect(requests).toBe(0);
		expect((await ledger.counts('c1')).rows).toMatchObject({
			pending: 3,
			submitting: 0,
			accepted: 0,
			uncertain: 0,
		});
		await ledger.close();
	});
});

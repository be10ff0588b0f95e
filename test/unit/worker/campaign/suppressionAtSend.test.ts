import { afterEach, describe, expect, it } from 'vitest';
import type { SendMessageRequest } from '../../../../api';
import { sendStage } from '../../../../worker/src/campaign/sendStage';
import { claimedChunks } from '../../../../worker/src/campaign/claimedChunks';
import type { Reporter } from '../../../../worker/src/campaign/reporter';
import { TokenBucket } from '../../../../worker/src/pacing/tokenBucket';
import type { BatchClient } from '../../../../worker/src/provider/batchClient';
import type { BatchOutcome } from '../../../../worker/src/provider/batchOutcome';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { openLedger } from '../../../../worker/src/storage/openStores';
import type { SharedLedger } from '../../../../worker/src/storage/sharedLedger';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { storeBackends, type StoreBackend } from '../../../support/storeBackends';
import { sql } from '../../../support/postgres/database';

// Issue 33: a STOP answered 200 while a chunk waited (its mark on an outage, its request on
// a retry) was not honoured, the chunk having judged suppression when its rows were taken.

const backends = storeBackends();
const open: Ledger[] = [];
afterEach(async () => {
	for (const l of open.splice(0)) await l.close();
});

const silent: Reporter = {
	event: () => undefined,
	rowError: () => undefined,
	progress: () => undefined,
	summary: () => undefined,
	close: () => undefined,
};
const number = (line: number) => `+6149157015${line}`;
const STOPPED = number(3);

async function ledgerAt(backend: StoreBackend): Promise<Ledger> {
	const l = await openLedger(backend.location());
	open.push(l);
	return l;
}

async function campaign(backend: StoreBackend): Promise<Ledger> {
	const ledger = await ledgerAt(backend);
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(
		'c1',
		[2, 3, 4].map((line) => ({
			line,
			to: number(line),
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		4,
	);
	return ledger;
}

/** A provider that answers every message, after `first` has answered the first request. */
function provider(first?: () => Promise<BatchOutcome | undefined>): {
	client: BatchClient;
	sent: string[];
} {
	const sent: string[] = [];
	let calls = 0;
	const client = {
		send: async (_: string, messages: SendMessageRequest[]): Promise<BatchOutcome> => {
			const early = calls++ === 0 ? await first?.() : undefined;
			if (early) return early;
			sent.push(...messages.map((m) => m.To));
			return {
				kind: 'answered',
				results: messages.map((m) => ({
					MessageSid: `SM${m.To}`,
					ExternalId: m.ExternalId,
				})) as never,
			};
		},
	} as unknown as BatchClient;
	return { client, sent };
}

const stage = (ledger: Ledger, client: BatchClient) => ({
	campaign: 'c1',
	propertySid: 'PR1',
	timing: {},
	ledger,
	client,
	bucket: new TokenBucket(0, 3),
	chunkSize: 3,
	concurrency: 1,
	total: 3,
	reporter: silent,
	controlPollMs: 0,
	backoff: { baseMs: 1, maxMs: 1, maxAttempts: 3 },
});

/** Worker stamps dated `ms` ago: the worker last said its callbacks were in before an outage. */
async function ageStamps(backend: StoreBackend, ms: number): Promise<void> {
	const location = backend.location();
	// Its time moved back, its host and pid kept.
	const update = `UPDATE meta SET value = '${Date.now() - ms}' || substr(value, ${String(Date.now()).length + 1}) WHERE key LIKE 'callbacks-in:%'`;
	if (location.kind === 'postgres') await sql(location.url, update);
	else {
		const db = new Database(location.path);
		db.prepare(update).run();
		db.close();
	}
}

async function statuses(ledger: Ledger): Promise<Record<number, string>> {
	const out: Record<number, string> = {};
	for await (const r of ledger.rows('c1')) out[r.line] = r.status;
	return out;
}

describe.each(backends)('a STOP answered while a chunk waits to leave ($name)', (backend) => {
	it("is honoured when it came while the chunk's mark waited (an outage): the number is not sent, its row is suppressed", async () => {
		const ledger = await campaign(backend);
		const worker = await ledgerAt(backend);
		// The mark is committed but the store holds the request back, as an outage would.
		const mark = ledger.markSubmittingCommitted.bind(ledger);
		ledger.markSubmittingCommitted = async (name, lines, chunk) => {
			const { durable } = await mark(name, lines, chunk);
			return { durable: durable.then(() => worker.addSuppression(STOPPED, 'replied STOP')) };
		};
		const { client, sent } = provider();
		const result = await sendStage(stage(ledger, client));
		expect(sent).toEqual([number(2), number(4)]);
		expect(result).toMatchObject({ stop: 'finished', sent: 2, suppressed: 1 });
		expect(await statuses(ledger)).toEqual({ 2: 'accepted', 3: 'suppressed', 4: 'accepted' });
	});

	it('is honoured when it came while the request was retried: the next attempt leaves without the number', async () => {
		const ledger = await campaign(backend);
		const worker = await ledgerAt(backend);
		const { client, sent } = provider(async () => {
			await worker.addSuppression(STOPPED, 'replied STOP');
			return { kind: 'retry', status: 503, reason: 'HTTP 503' };
		});
		const result = await sendStage(stage(ledger, client));
		expect(sent).toEqual([number(2), number(4)]);
		expect(result).toMatchObject({ stop: 'finished', sent: 2, suppressed: 1 });
		expect(await statuses(ledger)).toEqual({ 2: 'accepted', 3: 'suppressed', 4: 'accepted' });
		expect((await ledger.counts('c1')).rows).toMatchObject({ submitting: 0, pending: 0 });
	});

	it.runIf(backend.name === 'postgres')(
		'is honoured by workers sending together: a chunk claimed before the STOP leaves without the number',
		async () => {
			const ledger = await campaign(backend);
			const worker = await ledgerAt(backend);
			const shared = ledger as unknown as SharedLedger;
			const { client, sent } = provider(async () => {
				await worker.addSuppression(STOPPED, 'replied STOP');
				return { kind: 'retry', status: 503, reason: 'HTTP 503' };
			});
			const result = await sendStage({ ...stage(ledger, client), chunks: claimedChunks(shared) });
			expect(sent).toEqual([number(2), number(4)]);
			expect(result).toMatchObject({ stop: 'finished', sent: 2, suppressed: 1 });
			expect(await statuses(ledger)).toEqual({ 2: 'accepted', 3: 'suppressed', 4: 'accepted' });
		},
	);

	it('waits for the callbacks a worker took while the store was down: a STOP among them, taken in meanwhile, is honoured', async () => {
		const ledger = await campaign(backend);
		const worker = await ledgerAt(backend);
		await worker.stampCallbacksIn('w1');
		await ageStamps(backend, 20_000);
		const events: string[] = [];
		const reporter: Reporter = {
			...silent,
			event: (name) => {
				events.push(name);
				// The worker feeds its spool (the STOP) and processes it, then says so.
				if (name === 'callbacks-waiting')
					void worker
						.addSuppression(STOPPED, 'replied STOP')
						.then(() => worker.stampCallbacksIn('w1'));
			},
		};
		const { client, sent } = provider();
		const result = await sendStage({ ...stage(ledger, client), reporter });
		expect(events).toEqual(['callbacks-waiting', 'callbacks-in']);
		expect(sent).toEqual([number(2), number(4)]);
		expect(result).toMatchObject({ stop: 'finished', sent: 2, suppressed: 1 });
	});

	it('goes on, saying so, when a worker never says its callbacks are in (it is gone) once the bound has passed', async () => {
		const ledger = await campaign(backend);
		const worker = await ledgerAt(backend);
		await worker.stampCallbacksIn('gone');
		await ageStamps(backend, 20_000);
		const events: string[] = [];
		const { client, sent } = provider();
		const result = await sendStage({
			...stage(ledger, client),
			reporter: { ...silent, event: (name) => void events.push(name) },
			callbacksWaitMs: 300,
		});
		expect(events).toEqual(['callbacks-waiting', 'callbacks-gave-up', 'callbacks-in']);
		expect(sent).toEqual([number(2), number(3), number(4)]);
		expect(result).toMatchObject({ stop: 'finished', sent: 3 });
		// A fresh stamp holds nothing.
		await worker.stampCallbacksIn('alive');
		expect((await ledger.callbacksStamps()).find((s) => s.worker === 'alive')!.ageMs).toBeLessThan(
			1000,
		);
	});

	it('does not wait for a worker on this host whose process is gone: its spool waits for the next start', async () => {
		const ledger = await campaign(backend);
		const worker = await ledgerAt(backend);
		const dead = spawnSync(process.execPath, ['-e', '0']).pid;
		await worker.stampCallbacksIn('killed', { host: hostname(), pid: dead });
		await ageStamps(backend, 20_000);
		expect(await ledger.callbacksStamps()).toEqual([
			{ worker: 'killed', host: hostname(), pid: dead, ageMs: expect.any(Number) },
		]);
		const events: string[] = [];
		const { client, sent } = provider();
		await sendStage({
			...stage(ledger, client),
			reporter: { ...silent, event: (name) => void events.push(name) },
		});
		expect(events).toEqual([]);
		expect(sent).toEqual([number(2), number(3), number(4)]);
	});
});

import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher, type CaughtRequest } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
import { cli } from '../worker/harness';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const CALLBACK_SECRET = 'delivery-replay-secret-0123';
const cleanup = cleanupAfterEach();

interface Listed {
	id: string;
	type: string;
	state: string;
	destination: string;
}

/**
 * The delivery log, on `backend`'s store (replay is a store's update): a receiver down, by the worker's clock,
 * longer than `events.maxAge` leaves its deliveries dead, `cloudtel events list` shows
 * them, `cloudtel events replay` sends them again through the running worker, each once,
 * under its original webhook-id.
 */
describe.each(storeBackends())('delivery log and replay ($name)', (backend: StoreBackend) => {
	it('a receiver down past maxAge, then replayed: each event arrives once with its original id', async () => {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0 });
		cleanup.push(() => sandbox.close());
		const receiver = await CallbackCatcher.start();
		cleanup.push(() => receiver.close());
		receiver.statuses = [503];
		const location = backend.location();
		const db = location.kind === 'sqlite' ? location.path : location.url;
		const port = await freePort();
		const config = writeConfig(tempDir(), {
			db,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
			outbox: { backoffMs: 50, maxBackoffMs: 200, maxAttempts: 1000 },
			forward: { n8n: { url: `${receiver.url}/n8n`, events: ['reply'] } },
			events: { url: `${receiver.url}/events`, types: ['reply'], maxAge: '1h' },
		});
		const worker = await WorkerProcess.start(config, {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: CALLBACK_SECRET,
		});
		cleanup.push(() => worker.stop('SIGKILL'));
		const driver = new SandboxDriver(sandbox);
		const m = await driver.send({
			To: '+61491570421',
			Text: 'Reply to win',
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${CALLBACK_SECRET}/replies`,
		});
		const replies = [
			await driver.reply('+61491570421', m.From, 'one'),
			await driver.reply('+61491570421', m.From, 'two'),
		];
		const ids = replies.map((sid) => `reply:${sid}`);

		const list = async (...flags: string[]): Promise<Listed[]> => {
			const r = await cli(['events', 'list', '--db', db, '--json', ...flags]);
			expect(r.stderr).toBe('');
			return JSON.parse(r.stdout) as Listed[];
		};
		// Each reply twice: to n8n and to the events URL. Retried while younger than maxAge; an
		// hour on by the worker's clock (not waited out), the next failure of each makes it dead.
		const failedTwice = (id: string, path: string) =>
			receiver.requests.filter((r) => r.path === path && r.headers['webhook-id'] === id).length >=
			2;
		await until(
			() => ids.every((id) => failedTwice(id, '/n8n') && failedTwice(id, '/events')),
			30_000,
			'each delivery retried',
		);
		worker.advanceClock(60 * 60_000);
		await until(
			() => worker.count((l) => l.msg === 'delivery dead') === 4 || undefined,
			30_000,
			'four dead deliveries',
		);
		const dead = await list('--dead');
		expect(dead.map((d) => d.id).sort()).toEqual([...ids, ...ids].sort());
		expect(new Set(dead.map((d) => d.destination))).toEqual(new Set(['n8n', 'events']));
		expect((await list('--failed')).length).toBe(4);
		expect(receiver.requests.length).toBeGreaterThan(4);

		// Nothing of another type is replayed.
		const none = await cli([
			'events',
			'replay',
			'--db',
			db,
			'--since',
			'1h',
			'--type',
			'campaign.finished',
			'--json',
		]);
		expect(JSON.parse(none.stdout)).toMatchObject({ replayed: 0 });

		receiver.statuses = [200];
		const before = receiver.requests.length;
		const replay = await cli([
			'events',
			'replay',
			'--db',
			db,
			'--since',
			'1h',
			'--dead-only',
			'--json',
		]);
		expect(replay.code).toBe(0);
		expect(JSON.parse(replay.stdout)).toMatchObject({ replayed: 4 });
		worker.lookAtOutbox();
		const after = () => receiver.requests.slice(before);
		await until(() => after().length >= 4, 30_000, 'the four replayed deliveries');
		// A later delivery (a mark): once it is in, a second copy of any replayed one would be too.
		const mark = `reply:${await driver.reply('+61491570421', m.From, 'three')}`;
		await until(
			() => after().filter((r) => r.headers['webhook-id'] === mark).length === 2,
			30_000,
			'the mark at both receivers',
		);
		const replayed = after().filter((r: CaughtRequest) => r.headers['webhook-id'] !== mark);
		expect(replayed.map((r) => `${r.path} ${String(r.headers['webhook-id'])}`).sort()).toEqual(
			ids.flatMap((id) => [`/events ${id}`, `/n8n ${id}`]).sort(),
		);
		const states = await list('--since', '1h');
		expect(states.filter((d) => ids.includes(d.id)).map((d) => d.state)).toEqual([
			'sent',
			'sent',
			'sent',
			'sent',
		]);
		// Sent ones are not replayed again.
		const again = await cli(['events', 'replay', '--db', db, '--since', '1h', '--json']);
		expect(JSON.parse(again.stdout)).toMatchObject({ replayed: 0 });
	}, 90_000);
});

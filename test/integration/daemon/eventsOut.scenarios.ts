import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { campaignCounts } from '../../../worker/src/campaign/campaignCounts';
import { openLedger } from '../../../worker/src/storage/openStores';
import { CallbackCatcher, key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
import { cli } from '../worker/harness';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	TEST_TICKS_ONLY,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

/** Events out of a worker, in parts: each backend, and two workers on one Postgres. */
export function scenarios(part: 'sqlite' | 'postgres' | 'postgres-paused' | 'two-workers'): void {
	// Postgres's pause scenario is a file of its own: the three together took 46 s in a CI run.
	const backendName = part === 'postgres-paused' ? 'postgres' : part;
	const SECRET = 'events-out-secret-0123456789';

	const cleanup = cleanupAfterEach();

	async function setUp(
		backend: StoreBackend,
		config: (property: string) => Record<string, unknown>,
	) {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
		cleanup.push(() => sandbox.close());
		const driver = new SandboxDriver(sandbox);
		const dir = tempDir();
		const location = backend.location();
		const port = await freePort();
		const settings = (port: number) => ({
			db: location.kind === 'sqlite' ? location.path : location.url,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', secret: SECRET },
			outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 200 },
			...config(sandbox.demo.PropertySid),
		});
		const path = writeConfig(dir, settings(port));
		const env = {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		};
		const run = async (configPath: string) => {
			const worker = await WorkerProcess.start(configPath, env);
			cleanup.push(() => worker.stop('SIGKILL'));
			return worker;
		};
		const start = () => run(path);
		/** Another worker on the same database, listening on a port of its own. */
		const startAnother = async () =>
			run(
				writeConfig(
					dir,
					settings(await freePort()),
					`other${Math.random().toString(36).slice(2)}.config.yaml`,
				),
			);
		const callbacks = `http://127.0.0.1:${port}/callbacks/${SECRET}`;
		return { sandbox, driver, dir, location, start, startAnother, callbacks };
	}

	/**
	 * Events out: campaign.started / finished / paused, reply and optout POSTed to an events
	 * URL (a real HTTP receiver here, where the CloudTel Trigger's URL would be) through the
	 * forward outbox: each once, with its id as Idempotency-Key on every attempt.
	 */
	// Backends: the crash and restart scenarios (a worker killed before the send, an attempt a
	// crash cut off) run on both; the others on one each, alternating (the event store's
	// contract (runs, forwards) is proven on both in-process by test/unit/worker/storage/daemonStore.test.ts).
	describe.each(storeBackends().filter((b) => b.name === backendName))(
		'events out ($name)',
		(backend) => {
			it.runIf(backend.name === 'sqlite')(
				'a config campaign run sends one started and one finished event with its true counts; replies and opt-outs too; a 500 is retried under the same key',
				async () => {
					const receiver = await CallbackCatcher.start();
					cleanup.push(() => receiver.close());
					// The receiver fails the first event it is sent, then takes everything.
					receiver.statuses = [500, 200];
					const csv = [
						'Phone,Name',
						'+61491570501,A',
						'+61491570502,B',
						'+61491570503,C',
						'+61491570504,D',
						'12,Bad',
						'+61491570501,Again',
						'+61491570505,Stopped',
					].join('\n');
					const { driver, dir, location, start, callbacks } = await setUp(backend, (property) => ({
						events: {
							url: `${receiver.url}/webhook/abc/cloudtel?secret=trigger-secret`,
							headers: { 'X-CloudTel-Secret': 'header-secret' },
						},
						campaigns: [
							{
								name: 'spring',
								cron: TEST_TICKS_ONLY,
								timeZone: 'UTC',
								csv: 'list.csv',
								property,
								text: 'Hi {{Name}}',
							},
						],
					}));
					writeFileSync(join(dir, 'list.csv'), csv);
					const worker = await start();

					// +61491570505 opts out before the campaign: a reply and an optout event, of no campaign.
					const earlier = await driver.send({
						To: '+61491570505',
						Text: 'Earlier news',
						WebhookUri: `${callbacks}/replies`,
					});
					const stopSid = await driver.reply('+61491570505', earlier.From, 'STOP');
					await worker.waitFor((l) => l.msg === 'opted out', 10_000, 'the opt-out');

					worker.tick('spring');
					const summary = await worker.waitFor(
						(l) => l.msg === 'campaign summary',
						30_000,
						'the campaign run',
					);
					const run = String(summary.run);
					expect(run).toMatch(/^spring-\d{8}T\d{6}Z$/);
					const messages = (await driver.messages()).filter((m) =>
						String(m.ExternalId).startsWith(`${run}:`),
					);
					const toB = messages.find((m) => m.To === '+61491570502');
					const replySid = await driver.reply('+61491570502', toB.From, 'Thanks!');

					const expected = [
						`reply:${stopSid}`,
						`optout:${stopSid}`,
						`campaign.started:${run}`,
						`campaign.finished:${run}`,
						`reply:${replySid}`,
					];
					const taken = () => receiver.requests.filter((_, i) => i > 0);
					await until(
						() => new Set(taken().map(key)).size === expected.length,
						30_000,
						'every event',
					);
					// The mark: the outbox sends one at a time, oldest first, so an event more would come before this later reply's.
					const markSid = await driver.reply('+61491570502', toB.From, 'mark');
					await until(
						() => receiver.requests.some((r) => key(r) === `reply:${markSid}`),
						10_000,
						'the later reply as the mark',
					);

					// Each once answered 200; the one refused went again under the same key, the same body.
					expect(taken().map(key).sort()).toEqual([...expected, `reply:${markSid}`].sort());
					expect(receiver.requests).toHaveLength(expected.length + 2);
					const refused = receiver.requests[0];
					expect(taken().find((r) => key(r) === key(refused))!.body).toEqual(refused.body);
					const byKey = new Map(taken().map((r) => [key(r), r]));
					for (const r of taken()) {
						expect(r.method).toBe('POST');
						expect(r.path).toBe('/webhook/abc/cloudtel');
						expect(r.query.secret).toBe('trigger-secret');
						expect(r.headers['x-cloudtel-secret']).toBe('header-secret');
						expect(r.headers['content-type']).toBe('application/json');
						expect(r.body.id).toBe(key(r));
						expect(Number.isNaN(Date.parse(r.body.occurredAt))).toBe(false);
					}

					const started = byKey.get(`campaign.started:${run}`)!.body;
					expect(started).toMatchObject({
						type: 'campaign.started',
						campaign: 'spring',
						data: { run },
					});
					const finished = byKey.get(`campaign.finished:${run}`)!.body;
					expect(finished).toMatchObject({ type: 'campaign.finished', campaign: 'spring' });
					expect(finished.data).toEqual({
						state: 'finished',
						run,
						counts: {
							recipients: 7,
							pending: 0,
							accepted: 4,
							rejected: 0,
							uncertain: 0,
							invalid: 1,
							duplicate: 1,
							suppressed: 1,
							capped: 0,
							cancelled: 0,
							delivered: 0,
							undelivered: 0,
							replies: 0,
						},
					});
					// The figures `campaign status` reads from the ledger.
					const ledger = await openLedger(location);
					try {
						const now = await campaignCounts(ledger, run);
						expect({ ...now, replies: 0 }).toEqual(finished.data.counts);
					} finally {
						await ledger.close();
					}

					expect(byKey.get(`reply:${stopSid}`)!.body).toEqual({
						id: `reply:${stopSid}`,
						type: 'reply',
						occurredAt: expect.any(String),
						data: { from: '+61491570505', to: earlier.From, text: 'STOP', messageSid: stopSid },
					});
					expect(byKey.get(`optout:${stopSid}`)!.body).toMatchObject({
						type: 'optout',
						data: { number: '+61491570505', keyword: 'STOP' },
					});
					expect(byKey.get(`optout:${stopSid}`)!.body.campaign).toBeUndefined();
					expect(byKey.get(`reply:${replySid}`)!.body).toMatchObject({
						type: 'reply',
						campaign: 'spring',
						data: {
							from: '+61491570502',
							to: toB.From,
							text: 'Thanks!',
							messageSid: replySid,
							campaign: 'spring',
						},
					});
					expect(worker.count((l) => l.msg === 'forward will be retried')).toBe(1);
				},
				120_000,
			);

			it.runIf(part !== 'postgres-paused')(
				"a campaign's own URL takes its events; a worker killed after the run closed, before the send, sends them once when it is back",
				async () => {
					const worldwide = await CallbackCatcher.start();
					cleanup.push(() => worldwide.close());
					// Nothing listens at the campaign's URL yet: its events wait in the outbox.
					const campaignPort = await freePort();
					const { driver, dir, start } = await setUp(backend, (property) => ({
						events: {
							url: `${worldwide.url}/all`,
							types: ['campaign.started', 'campaign.finished', 'reply'],
						},
						campaigns: [
							{
								name: 'own',
								cron: TEST_TICKS_ONLY,
								timeZone: 'UTC',
								csv: 'list.csv',
								property,
								text: 'Hi {{Name}}',
								events: `http://127.0.0.1:${campaignPort}/own`,
							},
						],
					}));
					writeFileSync(join(dir, 'list.csv'), 'Phone,Name\n+61491570601,A\n+61491570602,B\n');
					let worker = await start();
					worker.tick('own');
					const summary = await worker.waitFor(
						(l) => l.msg === 'campaign summary',
						30_000,
						'the campaign run',
					);
					const run = String(summary.run);
					await worker.waitFor(
						(l) => l.msg === 'forward will be retried' && l.event === `campaign.finished:${run}`,
						10_000,
						'a failed attempt at the finished event',
					);
					// Killed: the run is closed and its event stored, not yet sent.
					await worker.stop('SIGKILL');

					const own = await CallbackCatcher.start(campaignPort);
					cleanup.push(() => own.close());
					worker = await start();
					await until(() => own.requests.length >= 2, 20_000, 'the events after the restart');
					// The mark: a reply to the run, whose event the outbox sends after any older one.
					const sentTo = (await driver.messages()).find((m) =>
						String(m.ExternalId).startsWith(`${run}:`),
					);
					const markSid = await driver.reply(sentTo.To, sentTo.From, 'mark');
					await until(
						() => own.requests.some((r) => key(r) === `reply:${markSid}`),
						10_000,
						'the later reply as the mark',
					);
					expect(own.requests.map(key).sort()).toEqual([
						`campaign.finished:${run}`,
						`campaign.started:${run}`,
						`reply:${markSid}`,
					]);
					expect(
						own.requests.find((r) => key(r) === `campaign.finished:${run}`)!.body.data,
					).toMatchObject({ state: 'finished', counts: { recipients: 2, accepted: 2 } });
					// The campaign's own URL wins: the worker-wide one saw none of its events, nor its headers.
					expect(worldwide.requests).toHaveLength(0);
					expect(worker.count((l) => l.msg === 'campaign run resumed')).toBe(0);
				},
				120_000,
			);

			it.runIf(part === 'postgres-paused')(
				'a run paused from the CLI announces campaign.paused with its figures, and its finish once resumed; one cancelled, campaign.finished cancelled',
				async () => {
					const receiver = await CallbackCatcher.start();
					cleanup.push(() => receiver.close());
					let list = 'Phone,Name\n';
					for (let i = 0; i < 10; i++) list += `+614915708${String(i).padStart(2, '0')},N${i}\n`;
					const { driver, dir, location, start } = await setUp(backend, (property) => ({
						events: { url: `${receiver.url}/events` },
						// Slow enough that the CLIs' own starts on a busy machine do not outlast them (at 2 a
						// second a CI run found 'held' sent whole when its pause came); the one cancelled slower still.
						campaigns: ['held', 'dropped'].map((name) => ({
							name,
							cron: TEST_TICKS_ONLY,
							timeZone: 'UTC',
							csv: 'list.csv',
							property,
							text: 'Hi {{Name}}',
							rate: name === 'held' ? 1 : 0.5,
							batchSize: 1,
						})),
					}));
					writeFileSync(join(dir, 'list.csv'), list);
					const worker = await start();
					worker.tick('held');
					worker.tick('dropped');
					const db = location.kind === 'sqlite' ? location.path : location.url;
					const runs = await until(
						() => {
							const names = worker.logs
								.filter((l) => l.msg === 'campaign run started' || l.run !== undefined)
								.map((l) => String(l.run));
							const held = names.find((n) => n.startsWith('held-'));
							const dropped = names.find((n) => n.startsWith('dropped-'));
							return held && dropped ? { held, dropped } : undefined;
						},
						20_000,
						'both runs',
					);
					await until(
						async () =>
							(await driver.messages()).filter((m) =>
								String(m.ExternalId).startsWith(`${runs.held}:`),
							).length >= 2,
						20_000,
						'some messages of each',
					);
					const [pause, cancel] = await Promise.all([
						cli(['campaign', 'pause', '--db', db, '--name', runs.held]),
						cli(['campaign', 'cancel', '--db', db, '--name', runs.dropped]),
					]);
					expect([pause.code, cancel.code]).toEqual([0, 0]);
					const pausedEvent = await until(
						() => receiver.requests.find((r) => key(r).startsWith(`campaign.paused:${runs.held}:`)),
						20_000,
						'the pause announced',
					);
					await until(
						() => receiver.requests.some((r) => key(r) === `campaign.finished:${runs.dropped}`),
						20_000,
						'the cancelled run announced',
					);
					const ledger = await openLedger(location);
					try {
						// Announced while the run waits, with the figures of that moment.
						expect(pausedEvent.body).toMatchObject({
							type: 'campaign.paused',
							campaign: 'held',
							data: { run: runs.held },
						});
						expect(pausedEvent.body.data.counts).toEqual(await campaignCounts(ledger, runs.held));
						expect(pausedEvent.body.data.counts.pending).toBeGreaterThan(0);
						expect(pausedEvent.body.data.counts.accepted).toBeGreaterThan(0);
						const cancelled = receiver.requests.find(
							(r) => key(r) === `campaign.finished:${runs.dropped}`,
						)!.body;
						expect(cancelled.data.state).toBe('cancelled');
						expect(cancelled.data.counts).toEqual(await campaignCounts(ledger, runs.dropped));
						expect(cancelled.data.counts.cancelled).toBeGreaterThan(0);
						expect(cancelled.data.counts.accepted + cancelled.data.counts.cancelled).toBe(10);
					} finally {
						await ledger.close();
					}
					// Resumed, the run goes on to its end.
					expect((await cli(['campaign', 'resume', '--db', db, '--name', runs.held])).code).toBe(0);
					const finished = await until(
						() => receiver.requests.find((r) => key(r) === `campaign.finished:${runs.held}`),
						30_000,
						'the resumed run to finish',
					);
					expect(finished.body.data).toMatchObject({
						state: 'finished',
						counts: { recipients: 10, accepted: 10, pending: 0 },
					});
					// The mark: a reply to the run, whose event the outbox sends after any older one.
					const sentTo = (await driver.messages()).find((m) =>
						String(m.ExternalId).startsWith(`${runs.held}:`),
					);
					const markSid = await driver.reply(sentTo.To, sentTo.From, 'mark');
					await until(
						() => receiver.requests.some((r) => key(r) === `reply:${markSid}`),
						10_000,
						'the later reply as the mark',
					);
					expect(receiver.requests.map(key).sort()).toEqual(
						[
							`campaign.finished:${runs.dropped}`,
							`campaign.finished:${runs.held}`,
							key(pausedEvent),
							`campaign.started:${runs.dropped}`,
							`campaign.started:${runs.held}`,
							`reply:${markSid}`,
						].sort(),
					);
				},
				120_000,
			);

			it.runIf(part !== 'postgres-paused')(
				'an attempt a crash cut off goes again after the restart, under the same Idempotency-Key and body',
				async () => {
					// A receiver that takes the first request and never answers it, then answers the rest.
					const seen: { key: string; body: string }[] = [];
					const held: ServerResponse[] = [];
					const server = createServer((req, res) => {
						const chunks: Buffer[] = [];
						req.on('data', (c: Buffer) => chunks.push(c));
						req.on('end', () => {
							seen.push({
								key: String(req.headers['idempotency-key']),
								body: Buffer.concat(chunks).toString('utf8'),
							});
							if (seen.length === 1) held.push(res);
							else res.writeHead(200).end();
						});
					});
					await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
					cleanup.push(
						() =>
							new Promise((r) => {
								for (const res of held) res.destroy();
								server.close(r);
							}),
					);
					const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
					const { driver, start, callbacks } = await setUp(backend, () => ({
						events: { url, types: ['optout'] },
					}));
					let worker = await start();
					const m = await driver.send({
						To: '+61491570801',
						Text: 'News',
						WebhookUri: `${callbacks}/replies`,
					});
					const stop = await driver.reply('+61491570801', m.From, 'STOP');
					await until(() => seen.length === 1, 10_000, 'the first attempt');
					// Killed while the receiver holds the attempt: it may or may not have taken it.
					await worker.stop('SIGKILL');
					worker = await start();
					await worker.waitFor(
						(l) => l.msg === 'forward interrupted; sending again',
						10_000,
						'the attempt taken up again',
					);
					await until(() => seen.length === 2, 10_000, 'the attempt again');
					// The mark: a later opt-out, whose event the outbox sends after any older one.
					const other = await driver.send({
						To: '+61491570802',
						Text: 'News',
						WebhookUri: `${callbacks}/replies`,
					});
					const mark = await driver.reply('+61491570802', other.From, 'STOP');
					await until(() => seen.length === 3, 10_000, 'the later opt-out as the mark');
					expect(seen.map((s) => s.key)).toEqual([
						`optout:${stop}`,
						`optout:${stop}`,
						`optout:${mark}`,
					]);
					expect(seen[1].body).toBe(seen[0].body);
				},
				60_000,
			);

			it.runIf(backend.name === 'sqlite')(
				'types: only the events named go to the events URL',
				async () => {
					const receiver = await CallbackCatcher.start();
					cleanup.push(() => receiver.close());
					const { driver, start, callbacks } = await setUp(backend, () => ({
						events: { url: `${receiver.url}/optouts`, types: ['optout'] },
					}));
					const worker = await start();
					const m = await driver.send({
						To: '+61491570701',
						Text: 'News',
						WebhookUri: `${callbacks}/replies`,
					});
					const hello = await driver.reply('+61491570701', m.From, 'hello there');
					await worker.waitFor(
						(l) => l.msg === 'reply' && l.messageSid === hello,
						10_000,
						'the first reply processed',
					);
					const stop = await driver.reply('+61491570701', m.From, 'Stop please');
					await until(() => receiver.requests.length > 0, 10_000, 'the optout event');
					// The mark: a later opt-out, whose event the outbox sends after any older one.
					const other = await driver.send({
						To: '+61491570702',
						Text: 'News',
						WebhookUri: `${callbacks}/replies`,
					});
					const mark = await driver.reply('+61491570702', other.From, 'STOP');
					await until(
						() => receiver.requests.some((r) => key(r) === `optout:${mark}`),
						10_000,
						'the later opt-out as the mark',
					);
					expect(receiver.requests.map(key)).toEqual([`optout:${stop}`, `optout:${mark}`]);
					expect(receiver.requests[0].body).toMatchObject({
						id: `optout:${stop}`,
						type: 'optout',
						data: { number: '+61491570701', keyword: 'STOP' },
					});
				},
				120_000,
			);
		},
	);

	describe.runIf(part === 'two-workers')('events out with two workers on one Postgres', () => {
		const [, postgres] = storeBackends();
		it('announce a run they send together once: one started, one finished', async () => {
			const receiver = await CallbackCatcher.start();
			cleanup.push(() => receiver.close());
			let list = 'Phone,Name\n';
			for (let i = 0; i < 40; i++) list += `+614915709${String(i).padStart(2, '0')},N${i}\n`;
			const { driver, dir, start, startAnother } = await setUp(postgres, (property) => ({
				events: { url: `${receiver.url}/events` },
				campaigns: [
					{
						name: 'shared',
						cron: TEST_TICKS_ONLY,
						timeZone: 'UTC',
						csv: 'list.csv',
						property,
						text: 'Hi {{Name}}',
						rate: 20,
						batchSize: 2,
					},
				],
			}));
			writeFileSync(join(dir, 'list.csv'), list);
			const one = await start();
			const two = await startAnother();
			// Both workers on the one tick, as their crons would fire it.
			const at = new Date(Math.floor(Date.now() / 1000) * 1000);
			one.tick('shared', at);
			two.tick('shared', at);
			const summaries = await until(
				() => {
					const s = [...one.logs, ...two.logs].filter((l) => l.msg === 'campaign summary');
					return s.length === 2 ? s : undefined;
				},
				40_000,
				'both workers to end the run',
			);
			const run = String(summaries[0].run);
			expect(summaries[1].run).toBe(run);
			await until(() => receiver.requests.length >= 2, 20_000, 'the events');
			// The mark: a reply to the run, stored after both runs closed. Both outboxes take the
			// oldest due forward first, so a second started or finished would be sent before it.
			const sentTo = (await driver.messages()).find((m) =>
				String(m.ExternalId).startsWith(`${run}:`),
			);
			const markSid = await driver.reply(sentTo.To, sentTo.From, 'mark');
			await until(
				() => receiver.requests.some((r) => key(r) === `reply:${markSid}`),
				10_000,
				'the later reply as the mark',
			);
			expect(receiver.requests.map(key).sort()).toEqual([
				`campaign.finished:${run}`,
				`campaign.started:${run}`,
				`reply:${markSid}`,
			]);
			expect(
				receiver.requests.find((r) => key(r) === `campaign.finished:${run}`)!.body.data,
			).toMatchObject({ state: 'finished', counts: { recipients: 40, accepted: 40, pending: 0 } });
		}, 120_000);
	});
}

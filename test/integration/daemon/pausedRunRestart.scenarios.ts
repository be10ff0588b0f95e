import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher, key } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
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

const SECRET = 'paused-restart-secret-0123456789';
/**
 * At 2 a second the run lasts about 10 s: the pause, a CLI start on a loaded machine (seconds),
 * must come before its end (with 10 rows an empty-cache CI run found it finished, exit 1).
 */
const ROWS = 20;

/**
 * A cron run paused (`cloudtel campaign pause`) when the worker stops stays open: the
 * worker takes it up paused at its next start, sends nothing while it stays paused, and
 * after `cloudtel campaign resume` sends the rest (nobody twice) and announces its end.
 */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const cleanup = cleanupAfterEach();
	describe.each(storeBackends().filter((b) => b.name === part))(
		'a paused cron run across a restart ($name)',
		(backend) => {
			it('waits paused after the restart, then sends the rest once resumed, with one campaign.finished', async () => {
				await ensureBuilt();
				const sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
				cleanup.push(() => sandbox.close());
				const driver = new SandboxDriver(sandbox);
				const receiver = await CallbackCatcher.start();
				cleanup.push(() => receiver.close());
				const dir = tempDir();
				const location = backend.location();
				const db = location.kind === 'sqlite' ? location.path : location.url;
				const port = await freePort();
				const config = writeConfig(dir, {
					db,
					server: {
						publicUrl: `http://127.0.0.1:${port}`,
						port,
						host: '127.0.0.1',
						secret: SECRET,
					},
					outbox: { concurrency: 1, backoffMs: 50, maxBackoffMs: 200 },
					events: { url: `${receiver.url}/events` },
					campaigns: [
						{
							name: 'held',
							cron: TEST_TICKS_ONLY,
							timeZone: 'UTC',
							csv: 'list.csv',
							property: sandbox.demo.PropertySid,
							text: 'Hi {{Name}}',
							rate: 2,
							batchSize: 1,
						},
						// A run at the same pace while the other waits paused: the time it takes is the proof's.
						{
							name: 'beat',
							cron: TEST_TICKS_ONLY,
							timeZone: 'UTC',
							csv: 'beat.csv',
							property: sandbox.demo.PropertySid,
							text: 'Hi {{Name}}',
							rate: 2,
							batchSize: 1,
						},
					],
				});
				let list = 'Phone,Name\n';
				for (let i = 0; i < ROWS; i++) list += `+614915722${String(i).padStart(2, '0')},N${i}\n`;
				writeFileSync(join(dir, 'list.csv'), list);
				writeFileSync(
					join(dir, 'beat.csv'),
					'Phone,Name\n+61491572301,B1\n+61491572302,B2\n+61491572303,B3\n',
				);
				const env = {
					CLOUDTEL_BASE_URL: sandbox.url,
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
				};
				const start = async () => {
					const worker = await WorkerProcess.start(config, env);
					cleanup.push(() => worker.stop('SIGKILL'));
					return worker;
				};
				let worker = await start();
				worker.tick('held');
				const run = String(
					(
						await worker.waitFor(
							(l) => typeof l.run === 'string' && l.run.startsWith('held-'),
							20_000,
							'the run',
						)
					).run,
				);
				const sent = async () =>
					(await driver.messages()).filter((m) => String(m.ExternalId).startsWith(`${run}:`));
				await until(async () => (await sent()).length >= 2, 20_000, 'some messages');
				expect((await cli(['campaign', 'pause', '--db', db, '--name', run])).code).toBe(0);
				const paused = await until(
					() => receiver.requests.find((r) => key(r).startsWith(`campaign.paused:${run}:`)),
					20_000,
					'the pause announced',
				);
				expect(await worker.stop('SIGTERM')).toBe(0);
				const before = (await sent()).length;
				expect(before).toBeLessThan(ROWS);

				worker = await start();
				await worker.waitFor(
					(l) => l.msg === 'campaign run resumed' && l.run === run,
					15_000,
					'the run taken up again',
				);
				// Still paused: the run, taken up, sees the pause, and waits. Meanwhile another run at
				// its pace sends three messages; a run that went on would have sent in that time too.
				await worker.waitFor(
					(l) => l.msg === 'campaign paused' && l.run === run,
					15_000,
					'the run waiting paused',
				);
				worker.tick('beat');
				const beat = await worker.waitFor(
					(l) => l.msg === 'campaign summary' && l.campaign === 'beat',
					15_000,
					'the other run to end',
				);
				expect(beat).toMatchObject({ stop: 'finished' });
				expect((await sent()).length).toBe(before);
				expect(receiver.requests.some((r) => key(r) === `campaign.finished:${run}`)).toBe(false);

				expect((await cli(['campaign', 'resume', '--db', db, '--name', run])).code).toBe(0);
				const finished = await until(
					() => receiver.requests.find((r) => key(r) === `campaign.finished:${run}`),
					30_000,
					'the resumed run to finish',
				);
				expect(finished.body.data).toMatchObject({
					state: 'finished',
					run,
					counts: { recipients: ROWS, accepted: ROWS, pending: 0 },
				});
				const all = await sent();
				expect(all).toHaveLength(ROWS);
				expect(new Set(all.map((m) => m.To)).size).toBe(ROWS);
				// The mark: a reply to the run, whose event the outbox sends after any older one.
				const markSid = await driver.reply(all[0].To, all[0].From, 'mark');
				await until(
					() => receiver.requests.some((r) => key(r) === `reply:${markSid}`),
					10_000,
					'the later reply as the mark',
				);
				// Each event once: the same pause, seen again after the restart, is not a second one.
				expect(receiver.requests.map(key).sort()).toEqual(
					[
						`campaign.finished:${run}`,
						key(paused),
						`campaign.started:${run}`,
						`reply:${markSid}`,
						`campaign.started:${beat.run}`,
						`campaign.finished:${beat.run}`,
					].sort(),
				);
			}, 120_000);
		},
	);
}

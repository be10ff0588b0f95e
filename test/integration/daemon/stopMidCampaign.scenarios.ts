import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { cleanupAfterEach } from '../../support/cleanup';
import { HoldingProxy } from '../../support/holdingProxy';
import { storeBackends, type StoreBackend } from '../../support/storeBackends';
import { cli, numbersCsv, startCli, summaryOf, writeCsv } from '../worker/harness';
import { freePort, SandboxDriver, tempDir, until, WorkerProcess, writeConfig } from './harness';

/** A STOP through a running worker, in parts: one backend each. */
/** `only`: one of the two tests, where a backend's pair came near 60 s in one file (`.<backend>Second.test.ts` runs the second). */
export function scenarios(part: 'sqlite' | 'postgres', only?: 'first' | 'second'): void {
	const SECRET = 'stop-secret-0123456789';
	const ROWS = 300;
	/** On the list at line 251 (numbersCsv's row 249): far beyond the chunks a held run has taken. */
	const STOPPER = '+61410000249';
	const STOPPER_LINE = 251;

	interface Setup {
		sandbox: RunningSandbox;
		driver: SandboxDriver;
		worker: WorkerProcess;
		dir: string;
		db: string;
		env: Record<string, string>;
		/** The leased number the stopper was texted from by an earlier campaign, and replies to. */
		leased: string;
	}

	const cleanup = cleanupAfterEach();

	/**
	 * A running worker on the backend's store, and an earlier campaign of the same ledger that
	 * texted the stopper from a leased number with the worker's reply URL: the stopper's STOP
	 * comes back as the provider's reply callback, with every field the provider sends.
	 */
	async function setUp(backend: StoreBackend): Promise<Setup> {
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 600_000 });
		cleanup.push(() => sandbox.close());
		const dir = tempDir();
		const location = backend.location();
		const db = location.kind === 'sqlite' ? location.path : location.url;
		const port = await freePort();
		const env = {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: SECRET,
		};
		const config = writeConfig(dir, {
			db,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
		});
		const worker = await WorkerProcess.start(config, env);
		cleanup.push(() => worker.stop('SIGKILL'));
		const earlier = writeCsv(dir, 'earlier.csv', `Phone,Name\n${STOPPER},Zoe\n`);
		const replyUrl = `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`;
		const first = await cli(
			[
				'campaign',
				'run',
				'--csv',
				earlier,
				'--text',
				'Hi {{Name}}, reply to book',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				db,
				'--name',
				'earlier',
				'--reply-url',
				replyUrl,
				'--rate',
				'0',
			],
			env,
		);
		expect(first.code, first.stderr).toBe(0);
		const driver = new SandboxDriver(sandbox);
		const sent = (await driver.messages()).find((m) => m.ExternalId === 'earlier:2');
		expect(sent).toMatchObject({ To: STOPPER });
		return { sandbox, driver, worker, dir, db, env, leased: sent.From };
	}

	/** The stopper replies STOP to the earlier campaign's text; resolves once the worker has opted it out. */
	async function replyStop(s: Setup): Promise<void> {
		const sid = await s.driver.reply(STOPPER, s.leased, 'Stop');
		await until(() => s.driver.callbackDelivered(sid), 20_000, 'the worker to take the STOP');
		// The earlier campaign's row counts the reply that opted out once the worker has done with it.
		await until(
			async () => {
				const r = await cli(['campaign', 'status', '--db', s.db, '--name', 'earlier', '--json']);
				return (
					r.code === 0 &&
					(JSON.parse(r.stdout) as { delivery: { optedOut: number } }).delivery.optedOut === 1
				);
			},
			20_000,
			'the opt-out',
		);
	}

	/** A proxy before the sandbox whose answers, from batch `from` on, wait for `release()`. */
	async function heldFrom(s: Setup, from: number) {
		let release!: () => void;
		const released = new Promise<void>((r) => (release = r));
		let reached!: () => void;
		const holding = new Promise<void>((r) => (reached = r));
		const proxy = new HoldingProxy(
			s.sandbox.url,
			() => 'pass',
			async (batch) => {
				if (batch < from) return;
				reached();
				await released;
			},
		);
		await proxy.start();
		cleanup.push(async () => {
			release();
			await proxy.close();
		});
		return { proxy, holding, release };
	}

	function statusOf(result: { code: number | null; stdout: string; stderr: string }) {
		expect(result.code, result.stderr).toBe(0);
		return JSON.parse(result.stdout) as {
			total: number;
			importedThrough: number;
			rows: Record<string, number>;
		};
	}

	/** Each input line's status in the --out file. */
	function outcomes(out: string): Map<number, string> {
		const lines = readFileSync(out, 'utf8').trim().split('\n').slice(1);
		return new Map(
			lines.map((l) => l.split(',')).map(([line, , status]) => [Number(line), status]),
		);
	}

	describe.each(storeBackends().filter((b) => b.name === part))(
		'a STOP through a running worker ($name)',
		(backend) => {
			it.runIf(only !== 'second')(
				'mid-campaign, from a number not yet sent: its row ends suppressed and never reaches the provider',
				async () => {
					const s = await setUp(backend);
					const { proxy, holding, release } = await heldFrom(s, 2);
					const csv = writeCsv(s.dir, 'spring.csv', numbersCsv(ROWS));
					const out = join(s.dir, 'spring.out.csv');
					const run = startCli(
						[
							'campaign',
							'run',
							'--csv',
							csv,
							'--text',
							'Spring sale, {{Name}}',
							'--property',
							s.sandbox.demo.PropertySid,
							'--db',
							s.db,
							'--name',
							'spring',
							'--rate',
							'50',
							'--batch-size',
							'10',
							'--concurrency',
							'2',
							'--out',
							out,
						],
						{ ...s.env, CLOUDTEL_BASE_URL: proxy.url },
					);
					cleanup.push(async () => {
						run.child.kill('SIGKILL');
						await run.done;
					});
					// The campaign is sending: two batches answered, the third on its way.
					await Promise.race([
						holding,
						run.done.then((r) => Promise.reject(new Error(`the run ended first: ${r.stderr}`))),
					]);
					expect(proxy.externalIds('pass')).not.toContain(`spring:${STOPPER_LINE}`);

					await replyStop(s);
					// Still not sent when the opt-out was stored: the send-time check is what stops it.
					expect(proxy.externalIds('pass')).not.toContain(`spring:${STOPPER_LINE}`);
					expect(
						statusOf(await cli(['campaign', 'status', '--db', s.db, '--name', 'spring', '--json']))
							.rows.suppressed ?? 0,
					).toBe(0);
					release();

					const done = await run.done;
					expect(done.code, done.stderr).toBe(0);
					expect(summaryOf(done).rows).toMatchObject({ accepted: ROWS - 1, suppressed: 1 });
					expect(outcomes(out).get(STOPPER_LINE)).toBe('suppressed');
					expect(proxy.externalIds('pass')).not.toContain(`spring:${STOPPER_LINE}`);
					const texts = (await s.driver.messages()).filter((m) => m.To === STOPPER);
					expect(texts.map((m) => m.ExternalId)).toEqual(['earlier:2']);
					// Everyone else got the campaign, once.
					const spring = (await s.driver.messages()).filter((m) =>
						String(m.ExternalId).startsWith('spring:'),
					);
					expect(new Set(spring.map((m) => m.To)).size).toBe(ROWS - 1);
					expect(spring).toHaveLength(ROWS - 1);
				},
			);

			it.runIf(only !== 'first')(
				'before a campaign is read: its row is suppressed at import, before its chunk comes up, and in a dry run',
				async () => {
					const s = await setUp(backend);
					await replyStop(s);
					const csv = writeCsv(s.dir, 'summer.csv', numbersCsv(ROWS));
					const args = [
						'campaign',
						'run',
						'--csv',
						csv,
						'--text',
						'Summer sale, {{Name}}',
						'--property',
						s.sandbox.demo.PropertySid,
						'--db',
						s.db,
						'--name',
						'summer',
						'--rate',
						'50',
						'--batch-size',
						'10',
						'--concurrency',
						'1',
					];
					const dry = await cli([...args, '--dry-run'], s.env);
					expect(dry.code, dry.stderr).toBe(0);
					expect(summaryOf(dry).rows).toMatchObject({ suppressed: 1 });

					// The first batch's answer held: the run has read the whole list and sent nothing more.
					const { proxy, holding, release } = await heldFrom(s, 0);
					const out = join(s.dir, 'summer.out.csv');
					const run = startCli([...args, '--out', out], { ...s.env, CLOUDTEL_BASE_URL: proxy.url });
					cleanup.push(async () => {
						run.child.kill('SIGKILL');
						await run.done;
					});
					await Promise.race([
						holding,
						run.done.then((r) => Promise.reject(new Error(`the run ended first: ${r.stderr}`))),
					]);
					const status = await until(
						async () => {
							const st = statusOf(
								await cli(['campaign', 'status', '--db', s.db, '--name', 'summer', '--json']),
							);
							return st.importedThrough === ROWS + 1 ? st : undefined;
						},
						60_000,
						'the import to finish',
					);
					expect(status.rows.suppressed).toBe(1);
					expect(
						proxy.batches
							.flatMap((b) => b.externalIds)
							.every((id) => Number(id.split(':')[1]) < STOPPER_LINE - 100),
					).toBe(true);
					release();

					const done = await run.done;
					expect(done.code, done.stderr).toBe(0);
					expect(outcomes(out).get(STOPPER_LINE)).toBe('suppressed');
					expect(
						(await s.driver.messages()).filter((m) => m.To === STOPPER).map((m) => m.ExternalId),
					).toEqual(['earlier:2']);
				},
			);
		},
	);
}

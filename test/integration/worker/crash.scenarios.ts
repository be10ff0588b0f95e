import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { HoldingProxy, type BatchFate } from '../../support/holdingProxy';
import { storeBackends } from '../../support/storeBackends';
import {
	cli,
	envFor,
	numbersCsv,
	sandboxMessages,
	startCli,
	tempDir,
	waitFor,
	withSandbox,
	writeCsv,
} from './harness';

/** Crash safety of campaign run, in parts: one backend each. */
export function scenarios(part: 'sqlite' | 'postgres'): void {
	const ROWS = 10_000;
	const BATCH = 250;
	/**
	 * Each run is killed once the batches from this many past where it began are held at the
	 * proxy: at once, then ever deeper into the list. Odd kills hold batches the sandbox has
	 * taken (their answers lost), even ones batches it never saw.
	 */
	const DEPTHS = [0, 1, 3, 6, 10];

	interface Status {
		rows: Record<string, number>;
	}

	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await withSandbox({ latencyMs: 5 });
	});
	afterAll(async () => sandbox?.close());

	describe.each(storeBackends().filter((b) => b.name === part))(
		'crash safety: SIGKILL mid-send ($name)',
		(backend) => {
			it('never sends a message twice and never loses a row across kills that each landed with rows on their way', async () => {
				const dir = tempDir();
				const location = backend.location();
				const db = location.kind === 'sqlite' ? location.path : location.url;
				const name = `crash${backend.name}`;
				const out = join(dir, 'out.csv');
				const csv = writeCsv(dir, 'big.csv', numbersCsv(ROWS));
				// Batches from holdFrom on are held at the proxy, each as `held` says.
				let holdFrom = Infinity;
				let held: BatchFate = 'neverSent';
				const proxy = new HoldingProxy(sandbox.url, (batch) => (batch < holdFrom ? 'pass' : held));
				await proxy.start();
				const args = [
					'campaign',
					'run',
					'--csv',
					csv,
					'--text',
					'Hello {{Name}}, this is message for {{Phone}}',
					'--property',
					sandbox.demo.PropertySid,
					'--db',
					db,
					'--name',
					name,
					'--rate',
					'0',
					'--batch-size',
					String(BATCH),
					'--concurrency',
					'4',
				];
				const env = { ...envFor(sandbox), CLOUDTEL_BASE_URL: proxy.url };
				const kills: string[] = [];
				try {
					for (const [k, depth] of DEPTHS.entries()) {
						held = k % 2 === 1 ? 'answerLost' : 'neverSent';
						holdFrom = proxy.batches.length + depth;
						const run = startCli(args, env);
						let ended = false;
						void run.done.then(() => (ended = true));
						await waitFor(() => ended || proxy.batches.length > holdFrom, 120_000);
						if (ended)
							throw new Error(
								`run ${k} ended before its batch ${holdFrom} was held: ${(await run.done).stderr}`,
							);
						// The ledger, read as a person would while the run goes on, has rows on their way.
						const status = await cli(['campaign', 'status', '--db', db, '--name', name, '--json']);
						expect(status.code, status.stderr).toBe(0);
						const submitting = (JSON.parse(status.stdout) as Status).rows.submitting;
						expect(submitting).toBeGreaterThanOrEqual(BATCH);
						run.child.kill('SIGKILL');
						const result = await run.done;
						expect(result.code, result.stderr).toBeNull();
						kills.push(`${held} after ${depth} batches, ${submitting} rows submitting`);
					}
					holdFrom = Infinity;
					const final = await cli([...args, '--out', out], env);
					expect([0, 3], final.stderr).toContain(final.code);
				} finally {
					await proxy.close();
				}

				const outcome = new Map<number, { status: string; sid: string }>();
				for (const line of readFileSync(out, 'utf8').trim().split('\n').slice(1)) {
					const [row, , status, sid] = line.split(',');
					outcome.set(Number(row), { status, sid });
				}
				// Every row is accounted for, with a final state.
				expect(outcome.size).toBe(ROWS);
				for (let line = 2; line <= ROWS + 1; line++)
					expect(['accepted', 'uncertain']).toContain(outcome.get(line)?.status);

				const messages = (await sandboxMessages(sandbox)).filter((m) =>
					m.ExternalId?.startsWith(`${name}:`),
				);
				const ids = messages.map((m) => m.ExternalId!);
				// Nobody got the same message twice.
				expect(new Set(ids).size).toBe(ids.length);
				// What the provider holds is exactly the accepted rows, plus some of the uncertain ones.
				for (const m of messages) {
					const o = outcome.get(Number(m.ExternalId!.split(':')[1]))!;
					if (o.status === 'accepted') expect(o.sid).toBe(m.MessageSid);
					else expect(o.status).toBe('uncertain');
				}
				// The rows of every batch a kill cut off are uncertain, never sent again: those the
				// sandbox took are there once, those it never saw are not there at all.
				const lineOf = (id: string) => Number(id.split(':')[1]);
				for (const id of proxy.externalIds('answerLost'))
					expect(outcome.get(lineOf(id))?.status).toBe('uncertain');
				for (const id of proxy.externalIds('neverSent'))
					expect(outcome.get(lineOf(id))?.status).toBe('uncertain');
				expect(ids).toEqual(expect.arrayContaining(proxy.externalIds('answerLost')));
				expect(ids.filter((id) => proxy.externalIds('neverSent').includes(id))).toEqual([]);
				const accepted = [...outcome.values()].filter((o) => o.status === 'accepted').length;
				expect(messages.length).toBeGreaterThanOrEqual(accepted);
				expect(messages.length).toBeLessThanOrEqual(ROWS);
				expect(kills).toHaveLength(DEPTHS.length);
				console.log(
					`crash test (${backend.name}): kills ${kills.join('; ')}; accepted ${accepted}, uncertain ${ROWS - accepted}, provider holds ${messages.length}`,
				);
			}, 300_000);
		},
	);
}

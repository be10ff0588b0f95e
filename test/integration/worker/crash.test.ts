import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { cli, envFor, numbersCsv, sandboxMessages, startCli, tempDir, withSandbox, writeCsv } from './harness';

const ROWS = 20_000;

describe('crash safety: SIGKILL at any moment', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		// Some latency so that kills land while batches are in flight.
		sandbox = await withSandbox({ latencyMs: 15 });
	});
	afterAll(async () => sandbox?.close());

	it('never sends a message twice and never loses a row across many kills and resumes', async () => {
		const dir = tempDir();
		const db = join(dir, 'l.db');
		const out = join(dir, 'out.csv');
		const csv = writeCsv(dir, 'big.csv', numbersCsv(ROWS));
		const args = ['campaign', 'run', '--csv', csv, '--text', 'Hello {{Name}}, this is message for {{Phone}}', '--property', sandbox.demo.PropertySid, '--db', db, '--name', 'crash', '--rate', '0', '--batch-size', '250', '--concurrency', '4'];
		const env = envFor(sandbox);
		// Kill points: during start-up and the import, then ever deeper into sending.
		const kills = [120, 250, 400, 550, 700, 850, 1000, 1200, 1400, 1700];
		const killedAt: string[] = [];
		for (const delay of kills) {
			const run = startCli(args, env);
			let stdout = '';
			run.child.stdout!.on('data', (d) => (stdout += d));
			await new Promise((r) => setTimeout(r, delay));
			run.child.kill('SIGKILL');
			const result = await run.done;
			killedAt.push(`${delay}ms:${result.code === null ? 'killed' : `exit ${result.code}`}`);
			if (result.code !== null) break;
		}
		const final = await cli([...args, '--out', out], env);
		expect([0, 3], final.stderr).toContain(final.code);

		const outcome = new Map<number, { status: string; sid: string }>();
		for (const line of readFileSync(out, 'utf8').trim().split('\n').slice(1)) {
			const [row, , status, sid] = line.split(',');
			outcome.set(Number(row), { status, sid });
		}
		// Every row is accounted for, with a final state.
		expect(outcome.size).toBe(ROWS);
		for (let line = 2; line <= ROWS + 1; line++) expect(['accepted', 'uncertain']).toContain(outcome.get(line)?.status);

		const messages = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith('crash:'));
		const ids = messages.map((m) => m.ExternalId!);
		// Nobody got the same message twice.
		expect(new Set(ids).size).toBe(ids.length);
		// What the provider holds is exactly the accepted rows, plus some of the uncertain ones.
		for (const m of messages) {
			const o = outcome.get(Number(m.ExternalId!.split(':')[1]))!;
			if (o.status === 'accepted') expect(o.sid).toBe(m.MessageSid);
			else expect(o.status).toBe('uncertain');
		}
		const accepted = [...outcome.values()].filter((o) => o.status === 'accepted').length;
		const uncertain = ROWS - accepted;
		expect(messages.length).toBeGreaterThanOrEqual(accepted);
		expect(messages.length).toBeLessThanOrEqual(accepted + uncertain);
		console.log(`crash test: kills ${killedAt.join(', ')}; accepted ${accepted}, uncertain ${uncertain}, provider holds ${messages.length}`);
	}, 180_000);
});

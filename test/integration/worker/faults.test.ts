import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import {
	cli,
	envFor,
	numbersCsv,
	sandboxMessages,
	summaryOf,
	tempDir,
	withSandbox,
	writeCsv,
} from './harness';

/** Every row once: accepted rows are exactly the provider's messages, no ExternalId twice. */
async function expectExactAccounting(sandbox: RunningSandbox, name: string, rows: number) {
	const sent = (await sandboxMessages(sandbox)).filter((m) => m.ExternalId?.startsWith(`${name}:`));
	const ids = sent.map((m) => m.ExternalId);
	expect(new Set(ids).size).toBe(ids.length);
	expect(ids.length).toBe(rows);
}

describe('provider faults', () => {
	let sandbox: RunningSandbox | undefined;
	afterEach(async () => {
		await sandbox?.close();
		sandbox = undefined;
	});

	it('honours 429 Retry-After and sends every row once', async () => {
		sandbox = await withSandbox({ rateLimit: 200 });
		const dir = tempDir();
		const csv = writeCsv(dir, 'r.csv', numbersCsv(1000));
		// No pacing of our own: the provider's 429s do it.
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				'limited',
				'--rate',
				'0',
				'--batch-size',
				'200',
				'--concurrency',
				'2',
			],
			envFor(sandbox),
		);
		expect(r.code, r.stderr).toBe(0);
		expect(summaryOf(r).rows).toMatchObject({ accepted: 1000, pending: 0, uncertain: 0 });
		const retries = r.events.filter((e) => e.event === 'retry');
		expect(retries.length).toBeGreaterThan(0);
		expect(retries.every((e) => e.status === 429 && (e.delayMs as number) >= 1000)).toBe(true);
		await expectExactAccounting(sandbox, 'limited', 1000);
	});

	it('retries 500s with back-off and sends every row once', async () => {
		sandbox = await withSandbox({ failRate: 0.3 });
		const dir = tempDir();
		const csv = writeCsv(dir, 'f.csv', numbersCsv(2000));
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				'faulty',
				'--rate',
				'0',
				'--batch-size',
				'100',
			],
			envFor(sandbox),
		);
		// A CI run saw exit 1 with an empty stderr: the end of stdout (the run's events) says why.
		expect(r.code, `${r.stderr}\n${r.stdout.slice(-3000)}`).toBe(0);
		expect(summaryOf(r).rows).toMatchObject({ accepted: 2000, pending: 0, uncertain: 0 });
		expect(r.events.some((e) => e.event === 'retry' && e.status === 500)).toBe(true);
		// One numbering: the text names the attempt that failed, as the attempt field does.
		for (const e of r.events.filter((x) => x.event === 'retry'))
			expect(e.message).toContain(`attempt ${e.attempt as number} failed`);
		await expectExactAccounting(sandbox, 'faulty', 2000);
	});

	it('leaves rows pending, not lost, when the provider keeps failing, and resumes later', async () => {
		sandbox = await withSandbox({ failRate: 1 });
		const dir = tempDir();
		const csv = writeCsv(dir, 'd.csv', numbersCsv(50));
		const args = [
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.demo.PropertySid,
			'--db',
			join(dir, 'l.db'),
			'--name',
			'down',
			'--retries',
			'2',
		];
		// The preflight passes the failing sandbox (it retries), the batches then give up.
		const r = await cli(args, envFor(sandbox));
		expect(r.code).toBe(1);
		const s = summaryOf(r);
		expect(s.rows).toMatchObject({ pending: 50, accepted: 0 });
		expect(s.message).toMatch(/kept failing.*stay pending/);
		await sandbox.close();
		sandbox = await withSandbox();
		const again = await cli(
			[...args.slice(0, 7), sandbox.demo.PropertySid, ...args.slice(8)],
			envFor(sandbox),
		);
		// A new sandbox means a new property. Nothing was sent, so the campaign simply starts
		// again with it and sends every row.
		expect(again.code, again.stderr).toBe(0);
		expect(again.events.find((e) => e.event === 'replaced')).toMatchObject({
			changed: [expect.stringMatching(/^--property/)],
		});
		expect(summaryOf(again).rows).toMatchObject({ accepted: 50, pending: 0 });
		await expectExactAccounting(sandbox, 'down', 50);
	}, 120_000);

	it('stores per-message rejections with their ErrorCode', async () => {
		sandbox = await withSandbox();
		// The sandbox's clock two days ahead: a Schedule two hours ahead of ours is, for the
		// provider, more than an hour in the past, and it refuses each message on its own.
		await fetch(`${sandbox.url}/_sandbox/clock`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ AdvanceSeconds: 2 * 86_400 }),
		});
		const dir = tempDir();
		const csv = writeCsv(dir, 'x.csv', numbersCsv(3));
		const out = join(dir, 'o.csv');
		const at = new Date(Date.now() + 2 * 3600_000).toISOString();
		const r = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--text',
				'Hi {{Name}}',
				'--property',
				sandbox.demo.PropertySid,
				'--db',
				join(dir, 'l.db'),
				'--name',
				'rej',
				'--schedule',
				at,
				'--out',
				out,
			],
			envFor(sandbox),
		);
		expect(r.code, r.stderr).toBe(0);
		const s = summaryOf(r);
		expect(s.rows).toMatchObject({ rejected: 3, accepted: 0 });
		expect(s.firstErrors[0]).toMatchObject({ line: 2, code: 'SCHEDULE_IN_PAST' });
		expect(readFileSync(out, 'utf8')).toMatch(/\n2,\+61410000000,rejected,,SCHEDULE_IN_PAST,/);
	});
});

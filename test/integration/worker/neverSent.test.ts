import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { sendStage } from '../../../worker/src/campaign/sendStage';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { TokenBucket } from '../../../worker/src/pacing/tokenBucket';
import { BatchClient } from '../../../worker/src/provider/batchClient';
import { SilentReporter } from '../../../worker/src/daemon/api/silentReporter';
import { runCampaign, sentBy } from '../../support/runCampaign';
import { cli, envFor, numbersCsv, summaryOf, tempDir, withSandbox, writeCsv } from './harness';

describe('a request that provably never left leaves its rows pending, never uncertain', () => {
	let sandbox: RunningSandbox;
	let env: Record<string, string>;
	let dir: string;
	let csv: string;
	beforeAll(async () => {
		sandbox = await withSandbox();
		env = envFor(sandbox);
		dir = tempDir();
		csv = writeCsv(dir, 'list.csv', numbersCsv(20));
	});
	afterAll(async () => sandbox?.close());

	const run = (name: string, extra: string[]) =>
		runCampaign(sandbox, {
			csv,
			db: join(dir, 'l.db'),
			name,
			text: 'Hi {{Name}}',
			rate: '0',
			flags: extra,
		});
	/** Campaign `name` in a ledger of its own (`file`), rows 2 to 4 imported and pending: what sendStage takes. */
	const threePending = async (file: string, name: string) => {
		const ledger = new SqliteLedger(join(dir, file));
		await ledger.createCampaign({
			name,
			csvPath: csv,
			propertySid: sandbox.demo.PropertySid,
			text: 'Hi',
		});
		await ledger.importBatch(
			name,
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
	};

	it('refuses ftp:// and a value that is no URL as usage errors naming --base-url', async () => {
		for (const url of ['ftp://127.0.0.1/x', 'notaurl']) {
			const r = await run('badurl', ['--base-url', url]);
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(
				/--base-url \(CLOUDTEL_BASE_URL\) (is not a URL|must start with http:\/\/ or https:\/\/)/,
			);
			expect(r.stderr).toMatch(/Run `cloudtel --help` for usage/);
		}
	});

	it('https:// against the plain-HTTP sandbox, and a refused connection, stop before the campaign exists; the right URL then sends it all', async () => {
		const https = await run('tls', ['--base-url', sandbox.url.replace('http://', 'https://')]);
		expect(https.code).toBe(1);
		expect(https.stderr).toMatch(
			/cannot reach the provider \(ERR_SSL_WRONG_VERSION_NUMBER.*check --base-url/,
		);
		const refused = await run('tls', ['--base-url', 'http://127.0.0.1:1']);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/cannot reach the provider \(ECONNREFUSED/);
		const status = await cli(['campaign', 'status', '--db', join(dir, 'l.db'), '--name', 'tls']);
		expect(status.stderr).toMatch(/no campaign named tls/);

		const good = await run('tls', []);
		expect(good.code, good.stderr).toBe(0);
		expect(summaryOf(good).rows).toMatchObject({ accepted: 20, uncertain: 0 });
		expect(await sentBy(sandbox, 'tls')).toHaveLength(20);
	});

	it('at send time, a TLS error leaves the chunk pending and stops the run with a clear message', async () => {
		const ledger = await threePending('unit.db', 'mid');
		const client = new BatchClient(
			{ ...providerOf(sandbox), baseUrl: sandbox.url.replace('http://', 'https://') },
			1,
		);
		const result = await sendStage({
			campaign: 'mid',
			propertySid: sandbox.demo.PropertySid,
			timing: {},
			ledger,
			client,
			bucket: new TokenBucket(0, 2),
			chunkSize: 2,
			concurrency: 1,
			total: 3,
			reporter: new SilentReporter(),
			controlPollMs: 0,
		});
		await client.close();
		expect(result.stop).toBe('failed');
		expect(result.fatal?.message).toMatch(/ERR_SSL_WRONG_VERSION_NUMBER.*its rows stay pending/);
		expect((await ledger.counts('mid')).rows).toMatchObject({
			pending: 3,
			uncertain: 0,
			submitting: 0,
		});
		await ledger.close();
	});

	it('at send time, a refused connection is retried, then leaves the chunk pending, never uncertain', async () => {
		const ledger = await threePending('refused.db', 'refused');
		const client = new BatchClient({ ...providerOf(sandbox), baseUrl: 'http://127.0.0.1:1' }, 1);
		const result = await sendStage({
			campaign: 'refused',
			propertySid: sandbox.demo.PropertySid,
			timing: {},
			ledger,
			client,
			bucket: new TokenBucket(0, 3),
			chunkSize: 3,
			concurrency: 1,
			total: 3,
			reporter: new SilentReporter(),
			controlPollMs: 0,
			backoff: { baseMs: 10, maxMs: 20, maxAttempts: 3 },
		});
		await client.close();
		expect(result.stop).toBe('failed');
		expect(result.fatal?.message).toMatch(/ECONNREFUSED.*3 attempts.*stay pending/);
		expect((await ledger.counts('refused')).rows).toMatchObject({
			pending: 3,
			uncertain: 0,
			submitting: 0,
		});
		await ledger.close();
	});

	it('rows an older version marked uncertain after such an error are sent by a resume once the provider answers; a lost answer stays uncertain', async () => {
		const db = join(dir, 'old.db');
		const ledger = new SqliteLedger(db);
		await ledger.createCampaign({
			name: 'old',
			csvPath: csv,
			propertySid: sandbox.demo.PropertySid,
			text: 'Hi {{Name}}',
		});
		const lines = Array.from({ length: 20 }, (_, i) => i + 2);
		await ledger.importBatch(
			'old',
			lines.map((line) => ({
				line,
				to: `+614${String(10_000_000 + line - 2).slice(-8)}`,
				text: `Hi N${line - 2}`,
				segments: 1,
				status: 'pending' as const,
			})),
			21,
		);
		await ledger.setPhase('old', 'finished');
		// What the version before this one stored: the undici error code after "answer lost: ".
		const tls =
			'answer lost: ERR_SSL_WRONG_VERSION_NUMBER: 80AC4291FB7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number';
		await ledger.markSubmitting('old', lines.slice(0, 10), 1);
		await ledger.settle(
			'old',
			1,
			lines.slice(0, 10).map((line) => ({ line, status: 'uncertain', message: tls })),
		);
		await ledger.markSubmitting('old', lines.slice(10, 19), 2);
		await ledger.settle(
			'old',
			2,
			lines.slice(10, 19).map((line) => ({
				line,
				status: 'uncertain',
				message: 'answer lost: ERR_INVALID_URL: Invalid URL',
			})),
		);
		await ledger.markSubmitting('old', [21], 3);
		await ledger.settle('old', 3, [
			{ line: 21, status: 'uncertain', message: 'answer lost: UND_ERR_SOCKET: other side closed' },
		]);
		await ledger.close();

		const r = await cli(['campaign', 'run', '--db', db, '--name', 'old', '--rate', '0'], env);
		expect(r.code, r.stderr).toBe(3);
		const s = summaryOf(r);
		expect(s.rows).toMatchObject({ accepted: 19, uncertain: 1, pending: 0 });
		expect(s.uncertainLines).toEqual([21]);
		expect(r.events.find((e) => e.event === 'requeued')).toMatchObject({ count: 19 });
		expect(
			(await sentBy(sandbox, 'old'))
				.map((m) => Number(m.ExternalId!.split(':')[1]))
				.sort((a, b) => a - b),
		).toEqual(lines.slice(0, 19));
	});
});

function providerOf(sandbox: RunningSandbox) {
	return {
		baseUrl: sandbox.url,
		accountSid: sandbox.demo.AccountSid,
		authToken: sandbox.demo.AuthToken,
	};
}

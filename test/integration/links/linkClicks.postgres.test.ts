import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { newDatabase } from '../../support/postgres/database';
import { runCampaign } from '../../support/runCampaign';
import {
	ensureBuilt,
	freePort,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';
import { cli, sandboxMessages, writeCsv } from '../worker/harness';

const SECRET = 'links-pg-secret-0123456789abcdef';
const NUMBERS = ['+61491572001', '+61491572002'];
const SHOP = 'https://shop.example.com/autumn';

/**
 * Two workers on one Postgres, as behind a load balancer: a link made by a campaign on the
 * shared ledger is served by either, and the clicks both record count together.
 */
describe('tracked links on a shared Postgres', () => {
	let sandbox: RunningSandbox;
	const workers: WorkerProcess[] = [];
	const bases: string[] = [];
	let url: string;

	beforeAll(async () => {
		await ensureBuilt();
		sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
		url = await newDatabase('links');
		const dir = tempDir();
		for (const name of ['a', 'b']) {
			const port = await freePort();
			// The branded domain of both is one; here each is asked at its own port.
			bases.push(`http://127.0.0.1:${port}`);
			const config = writeConfig(
				dir,
				{
					provider: { baseUrl: sandbox.url },
					db: url,
					server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
					links: { baseUrl: `http://127.0.0.1:${port}/l`, scanWindowSeconds: 0 },
				},
				`${name}.config.yaml`,
			);
			workers.push(
				await WorkerProcess.start(config, {
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
					CLOUDTEL_CALLBACK_SECRET: SECRET,
				}),
			);
		}
	}, 120_000);

	afterAll(async () => {
		await Promise.allSettled(workers.map((w) => w.stop('SIGKILL')));
		await sandbox?.close();
	});

	it('either worker redirects any token, and the clicks of both count once per recipient', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'autumn.csv', `Phone\n${NUMBERS.join('\n')}\n`);
		const run = await runCampaign(sandbox, {
			csv,
			db: url,
			name: 'autumn',
			text: `Autumn sale: ${SHOP}`,
			flags: ['--track-links', '--link-base', 'https://go.example.com'],
		});
		expect(run.code, run.stderr).toBe(0);
		const tokens = (await sandboxMessages(sandbox))
			.filter((m) => m.ExternalId?.startsWith('autumn:'))
			.map((m) => /https:\/\/go\.example\.com\/([A-Za-z0-9_-]{10})$/.exec(m.Text)![1]);
		expect(tokens).toHaveLength(2);
		// The first recipient's link through worker a, then b; the second's through b.
		for (const [base, token] of [
			[bases[0], tokens[0]],
			[bases[1], tokens[0]],
			[bases[1], tokens[1]],
		]) {
			const r = await fetch(`${base}/l/${token}`, { redirect: 'manual' });
			expect(r.status).toBe(302);
			expect(r.headers.get('location')).toBe(SHOP);
		}
		const links = await until(
			async () => {
				const s = await cli(['campaign', 'status', '--db', url, '--name', 'autumn', '--json']);
				const l = (JSON.parse(s.stdout) as { links: { clicked: number; clicks: number } }).links;
				return l.clicks === 3 ? l : undefined;
			},
			20_000,
			'three clicks in status',
		);
		expect(links).toEqual({ clicked: 2, clicks: 3, prefetches: 0 });
	});
});

import { existsSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { signReportPath } from '../../../worker/src/daemon/http/reportLinks';
import { runCampaign } from '../../support/runCampaign';
import { cli } from '../worker/harness';
import { ensureBuilt, freePort, tempDir, WorkerProcess, writeConfig } from './harness';

/** Debian's chromium, as the report browser test; CLOUDTEL_CHROMIUM names another. */
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const SECRET = 'report-access-secret-0123';
const TOKEN = 'report-access-token-4567';
const API_TOKEN = 'report-access-api-token-8910';

let sandbox: RunningSandbox;
let dir: string;
let port: number;
let env: Record<string, string>;
let worker: WorkerProcess | undefined;

function config(server: Record<string, unknown>, name: string): string {
	return writeConfig(
		dir,
		{
			provider: { baseUrl: sandbox.url },
			db: 'worker.db',
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', ...server },
		},
		name,
	);
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0 });
	dir = tempDir();
	port = await freePort();
	env = {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
	};
	writeFileSync(join(dir, 'list.csv'), 'Phone\n+61491570101\n+61491570102\n');
	const run = await runCampaign(sandbox, {
		csv: join(dir, 'list.csv'),
		db: join(dir, 'worker.db'),
		name: 'spring',
		text: 'Hi',
		flags: ['--from', 'CloudTel'],
		env,
	});
	expect(run.code, run.stderr).toBe(0);
}, 120_000);

afterEach(async () => {
	await worker?.stop();
	worker = undefined;
});

afterAll(async () => {
	await sandbox?.close();
});

describe('campaign reports need their own token, and the server its limits', () => {
	it('without a report token no report is served: the callback secret opens none', async () => {
		const file = config({}, 'no-token.yaml');
		const link = await cli(['worker', '--config', file, '--report-link'], env);
		expect(link.code).toBe(2);
		expect(link.stderr).toContain('--report-link needs server.reportToken');
		worker = await WorkerProcess.start(file, env);
		const url = `http://127.0.0.1:${port}/campaigns`;
		for (const res of [
			await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } }),
			await fetch(`${url}?token=${SECRET}`),
			await fetch(`${url}/spring.json`, { headers: { authorization: `Bearer ${SECRET}` } }),
		]) {
			expect(res.status).toBe(404);
			expect(await res.text()).not.toContain('spring');
		}
		// No apiToken either: the campaign API is off, whatever is sent.
		const api = await fetch(`http://127.0.0.1:${port}/api/campaigns`, {
			headers: { authorization: `Bearer ${SECRET}` },
		});
		expect(api.status).toBe(404);
		expect(await api.json()).toMatchObject({ error: { code: 'not_found' } });
	});

	it('with one: a Bearer header or a signed, short-lived link; never the token in a URL; pages with CSP, no-referrer, nosniff', async () => {
		const file = config({ reportToken: TOKEN }, 'token.yaml');
		worker = await WorkerProcess.start(file, env);
		const url = `http://127.0.0.1:${port}/campaigns`;
		expect((await fetch(`${url}?token=${TOKEN}`)).status).toBe(401);
		expect((await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(401);

		const index = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
		expect(index.status).toBe(200);
		const html = await index.text();
		expect(html).not.toContain(TOKEN);
		expect(html).toMatch(/href="\/campaigns\/spring\?expires=\d+&amp;signature=[\w-]+"/);
		// The dashboard and a campaign's page load their stylesheet and script from the worker (the
		// report in the page keeps its inline styles); the JSON, as before.
		for (const [res, policy] of [
			[
				index,
				"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
			],
			[
				await fetch(`${url}/spring`, { headers: { authorization: `Bearer ${TOKEN}` } }),
				"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
			],
			[
				await fetch(`${url}/spring.json`, { headers: { authorization: `Bearer ${TOKEN}` } }),
				"default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
			],
		] as const) {
			expect(res.headers.get('content-security-policy')).toBe(policy);
			expect(res.headers.get('referrer-policy')).toBe('no-referrer');
			expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		}

		// A link for a browser, printed by the CLI from the same config.
		const printed = await cli(
			['worker', '--config', file, '--report-link', '--campaign', 'spring', '--minutes', '5'],
			env,
		);
		expect(printed.code, printed.stderr).toBe(0);
		const link = printed.stdout.trim();
		expect(link).toMatch(
			new RegExp(
				`^http://127\\.0\\.0\\.1:${port}/campaigns/spring\\?expires=\\d+&signature=[\\w-]+$`,
			),
		);
		expect(link).not.toContain(TOKEN);
		const page = await fetch(link);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Campaign spring');
		// Good for that page only, unaltered, and until it expires.
		expect((await fetch(link.replace('/campaigns/spring', '/campaigns/other'))).status).toBe(401);
		expect((await fetch(link.replace(/signature=./, 'signature=A'))).status).toBe(401);
		const past = signReportPath(TOKEN, '/campaigns/spring', Math.floor(Date.now() / 1000) - 1);
		expect((await fetch(`http://127.0.0.1:${port}${past}`)).status).toBe(401);
		expect(worker.text).not.toContain(TOKEN);

		// The policy lets the page draw as it is: no violation reported, the charts drawn.
		if (!existsSync(CHROMIUM) && process.env.CI !== 'true') return;
		const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
		try {
			const tab = await browser.newPage();
			const problems: string[] = [];
			tab.on('console', (m) => {
				if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
			});
			await tab.goto(link, { waitUntil: 'load' });
			const drawn = await tab.evaluate(() =>
				[...document.querySelectorAll('figure.chart svg')].map(
					(svg) => svg.getBoundingClientRect().height,
				),
			);
			expect(drawn.length).toBeGreaterThan(0);
			for (const height of drawn) expect(height).toBeGreaterThan(50);
			expect(problems).toEqual([]);
		} finally {
			await browser.close();
		}
	});

	it('needs the API token for /api; caps open connections: one beyond maxConnections is answered 503', async () => {
		worker = await WorkerProcess.start(
			config({ reportToken: TOKEN, apiToken: API_TOKEN, maxConnections: 20 }, 'capped.yaml'),
			env,
		);
		// From another address: one address alone meets its own cap (maxConnectionsPerClient) first.
		const idle: Socket[] = await Promise.all(
			Array.from(
				{ length: 20 },
				() =>
					new Promise<Socket>((resolve) => {
						const s = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' }, () =>
							resolve(s),
						);
					}),
			),
		);
		try {
			await new Promise((r) => setTimeout(r, 100));
			const over = await fetch(`http://127.0.0.1:${port}/campaigns`, {
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			expect(over.status).toBe(503);
		} finally {
			for (const s of idle) s.destroy();
		}
		await new Promise((r) => setTimeout(r, 100));
		expect(
			(
				await fetch(`http://127.0.0.1:${port}/campaigns`, {
					headers: { authorization: `Bearer ${TOKEN}` },
				})
			).status,
		).toBe(200);
		// The campaign API needs its own token: neither the report token nor the callback secret opens it.
		for (const bearer of [TOKEN, SECRET, undefined]) {
			const api = await fetch(`http://127.0.0.1:${port}/api/campaigns`, {
				headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
			});
			expect(api.status).toBe(401);
			expect(api.headers.get('www-authenticate')).toBe('Bearer');
		}
	});
});

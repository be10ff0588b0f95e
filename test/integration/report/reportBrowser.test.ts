import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { ensureBuilt, freePort, SandboxDriver, tempDir, until, WorkerProcess, writeConfig } from '../daemon/harness';
import { cli } from '../worker/harness';

/** Debian's chromium; CLOUDTEL_CHROMIUM names another build of it (a GitHub runner's Chrome). */
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
// CI installs Chromium (.ci/run): there a missing one is a failure, not a skip.
if (!hasChromium && process.env.CI !== 'true') console.log(`report browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

const SECRET = 'report-secret-0123456789';
const TOKEN = 'report-token-abcdefghijkl';
/** 12 rows: two the sandbox fails as UNDELIVERABLE (0666), one as UNKNOWN_SUBSCRIBER (0667), one invalid. */
const NUMBERS = ['+61491571001', '+61491570666', '+61491571002', '+61491570667', '+61491571003', '+61491571004', '+61491580666', '+61491571005', 'not a number', '+61491571006', '+61491571007', '+61491571008'];

type Report = Record<string, unknown> & { funnel: Record<string, number>; failuresByErrorCode: { errorCode: string; count: number }[]; failuresByCountry: { country: string; count: number }[] };

let sandbox: RunningSandbox;
let worker: WorkerProcess | undefined;
let browser: Browser | undefined;
let dir: string;
let port: number;
let report: Report;
let htmlPath: string;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	dir = tempDir();
	port = await freePort();
	writeConfig(dir, { provider: { baseUrl: sandbox.url }, db: 'worker.db', server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', reportToken: TOKEN } });
	worker = await WorkerProcess.start(join(dir, 'worker.config.yaml'), { CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid, CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken, CLOUDTEL_CALLBACK_SECRET: SECRET });

	// A campaign from leased numbers, with receipts and replies to the worker.
	writeFileSync(join(dir, 'list.csv'), 'Phone,Name\n' + NUMBERS.map((n, i) => `${n},N${i}`).join('\n') + '\n');
	const db = join(dir, 'worker.db');
	const env = { CLOUDTEL_BASE_URL: sandbox.url, CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid, CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken };
	const base = `http://127.0.0.1:${port}/callbacks/${SECRET}`;
	const run = await cli(
		['campaign', 'run', '--csv', join(dir, 'list.csv'), '--property', sandbox.demo.PropertySid, '--text', 'Hi {{Name}}, reply YES to book', '--db', db, '--name', 'spring', '--receipt-url', `${base}/receipts`, '--reply-url', `${base}/replies`],
		env,
	);
	expect(run.code, run.stderr).toBe(0);
	const driver = new SandboxDriver(sandbox);
	const sent = (await driver.messages()).filter((m) => String(m.ExternalId).startsWith('spring:'));
	const leaseOf = (to: string) => sent.find((m) => m.To === to)!.From as string;
	await driver.reply('+61491571001', leaseOf('+61491571001'), 'YES please');
	await driver.reply('+61491571002', leaseOf('+61491571002'), 'STOP');
	await driver.reply('+61491571001', leaseOf('+61491571001'), 'and a second reply');
	await until(
		async () => {
			const status = JSON.parse((await cli(['campaign', 'status', '--db', db, '--name', 'spring', '--json'])).stdout) as { delivery: { awaitingReceipt: number; replied: number; optedOut: number } };
			return status.delivery.awaitingReceipt === 0 && status.delivery.replied === 2 && status.delivery.optedOut === 1;
		},
		20_000,
		'the receipts and replies',
	);

	htmlPath = join(dir, 'spring.html');
	const out = await cli(['campaign', 'report', '--db', db, '--name', 'spring', '--json', '--html', htmlPath, '--price-per-segment', '0.045']);
	expect(out.code, out.stderr).toBe(0);
	report = JSON.parse(out.stdout) as Report;
	if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await worker?.stop('SIGKILL');
	await sandbox?.close();
});

/** The value at a dotted path of the report; `failuresByErrorCode.X` and `failuresByCountry.X` name a list entry. */
function at(path: string): unknown {
	const [head, ...rest] = path.split('.');
	const key = rest.join('.');
	if (head === 'failuresByErrorCode') return report.failuresByErrorCode.find((e) => e.errorCode === key)?.count;
	if (head === 'failuresByCountry') return report.failuresByCountry.find((c) => c.country === key)?.count;
	return rest.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], report[head]);
}

describe('campaign report', () => {
	it('--json counts the funnel, failures by ErrorCode and country, the time to receipt and the cost', () => {
		expect(report.funnel).toEqual({ rows: 12, valid: 11, sent: 11, delivered: 8, failed: 3, replied: 2, optedOut: 1 });
		expect(report.failuresByErrorCode).toEqual([
			{ errorCode: 'UNDELIVERABLE', count: 2 },
			{ errorCode: 'UNKNOWN_SUBSCRIBER', count: 1 },
		]);
		expect(report.failuresByCountry).toEqual([{ country: 'AU', count: 3 }]);
		expect(report.awaitingReceipt).toBe(0);
		const receipt = report.receiptSeconds as { p50: number; p95: number; receipts: number };
		expect(receipt.receipts).toBe(11);
		expect(receipt.p50).toBeGreaterThanOrEqual(0.1);
		expect(receipt.p95).toBeGreaterThanOrEqual(receipt.p50);
		expect(report.segments).toEqual({ sent: 11, pricePerSegment: 0.045, estimatedCost: 0.495 });
		const sends = (report.timeline as { sends: { count: number }[]; deliveries: { delivered: number; failed: number }[] });
		expect(sends.sends.reduce((n, b) => n + b.count, 0)).toBe(11);
		expect(sends.deliveries.reduce((n, b) => n + b.delivered + b.failed, 0)).toBe(11);
	});

	it('the HTML is one self-contained file: no script, no outside resource', () => {
		const html = readFileSync(htmlPath, 'utf8');
		// url(#id) is a clip path inside the SVG itself.
		expect(html).not.toMatch(/<script|<link|src=|@import|url\((?!#)/i);
		expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
	});

	it.skipIf(!hasChromium && process.env.CI !== 'true')('in headless Chromium: the numbers match --json, the charts rendered with a size, no console error, nothing fetched, fits a phone', async () => {
		expect(hasChromium, `CI must have Chromium at ${CHROMIUM}`).toBe(true);
		const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, offline: true });
		const page = await context.newPage();
		const problems: string[] = [];
		const fetched: string[] = [];
		page.on('console', (m) => {
			if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
		});
		page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
		page.on('request', (r) => {
			if (!r.url().startsWith('file:')) fetched.push(r.url());
		});
		await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });

		const figures = await page.$$eval('[data-figure]', (els) => els.map((e) => ({ path: e.getAttribute('data-figure')!, value: e.getAttribute('data-value')!, text: e.textContent!.trim() })));
		const paths = figures.map((f) => f.path);
		for (const key of Object.keys(report.funnel)) expect(paths).toContain(`funnel.${key}`);
		for (const p of ['awaitingReceipt', 'failuresByErrorCode.UNDELIVERABLE', 'failuresByErrorCode.UNKNOWN_SUBSCRIBER', 'failuresByCountry.AU', 'receiptSeconds.p50', 'receiptSeconds.p95', 'segments.sent', 'segments.estimatedCost']) expect(paths).toContain(p);
		for (const f of figures) {
			expect(Number(f.value), f.path).toBe(at(f.path));
			expect(Number(f.text.replace(/,/g, '')), f.path).toBe(at(f.path));
		}

		const charts = await page.$$eval('figure[data-chart]', (els) =>
			els.map((e) => {
				const svg = e.querySelector('svg');
				const box = svg?.getBoundingClientRect();
				const marks = svg ? [...svg.querySelectorAll('path, rect')].filter((m) => {
					const b = m.getBoundingClientRect();
					return b.width > 0 && b.height > 0;
				}).length : 0;
				return { id: e.getAttribute('data-chart'), width: box?.width ?? 0, height: box?.height ?? 0, marks, text: svg?.textContent ?? '' };
			}),
		);
		expect(charts.map((c) => c.id)).toEqual(['funnel', 'timeline', 'errorCodes', 'countries']);
		// Drawn marks with a size: at least one per bar of data, and an axis.
		const bars: Record<string, number> = { funnel: 7, timeline: 1, errorCodes: 2, countries: 1 };
		for (const c of charts) {
			expect(c.width, c.id!).toBeGreaterThan(200);
			expect(c.height, c.id!).toBeGreaterThan(100);
			expect(c.marks, c.id!).toBeGreaterThan(bars[c.id!]);
		}
		expect(charts.find((c) => c.id === 'errorCodes')!.text).toContain('UNDELIVERABLE');

		// Readable on a phone: nothing wider than the screen.
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
		expect(problems).toEqual([]);
		expect(fetched).toEqual([]);
		await context.close();
	}, 60_000);

	it('the worker serves every campaign at GET /campaigns, behind the report token', async () => {
		const url = `http://127.0.0.1:${port}/campaigns`;
		expect((await fetch(url)).status).toBe(401);
		expect((await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(401);
		const list = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } });
		expect(await list.json()).toEqual({ campaigns: [{ name: 'spring', report: '/campaigns/spring', link: expect.stringMatching(/^\/campaigns\/spring\?expires=\d+&signature=[\w-]+$/) }] });
		const index = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
		const link = /href="([^"]+)"/.exec(index)![1].replace(/&amp;/g, '&');
		expect(link).toMatch(/^\/campaigns\/spring\?expires=\d+&signature=/);
		expect(index).not.toContain(TOKEN);
		const served = (await (await fetch(`${url}/spring.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as Report;
		expect({ ...served, generatedAt: '' }).toEqual({ ...report, generatedAt: '', segments: { sent: 11, pricePerSegment: null, estimatedCost: null } });
		const page = await fetch(`http://127.0.0.1:${port}${link}`);
		expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const html = await page.text();
		expect(html).toContain('data-figure="funnel.delivered" data-value="8"');
		expect(html).toContain('data-chart="timeline"><figcaption>');
		expect((await fetch(`${url}/nope`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
		// Neither token reaches the log.
		expect(worker!.text).not.toContain(TOKEN);
	});
});

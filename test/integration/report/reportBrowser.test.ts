import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';
import { runCampaign } from '../../support/runCampaign';
import { cli } from '../worker/harness';
import Database from 'better-sqlite3';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';

/** Debian's chromium; CLOUDTEL_CHROMIUM names another build of it (a GitHub runner's Chrome). */
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
// CI installs Chromium (.ci/run): there a missing one is a failure, not a skip.
if (!hasChromium && process.env.CI !== 'true')
	console.log(`report browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

const SECRET = 'report-secret-0123456789';
const TOKEN = 'report-token-abcdefghijkl';
/** 12 rows: two the sandbox fails as UNDELIVERABLE (0666), one as UNKNOWN_SUBSCRIBER (0667), one invalid. */
const NUMBERS = [
	'+61491571001',
	'+61491570666',
	'+61491571002',
	'+61491570667',
	'+61491571003',
	'+61491571004',
	'+61491580666',
	'+61491571005',
	'not a number',
	'+61491571006',
	'+61491571007',
	'+61491571008',
];

type Report = Record<string, unknown> & {
	funnel: Record<string, number>;
	rowStates: unknown[];
	details: Record<string, unknown>;
	failuresByErrorCode: { errorCode: string; count: number }[];
	failuresByCountry: { country: string; count: number }[];
};

let sandbox: RunningSandbox;
let worker: WorkerProcess | undefined;
let browser: Browser | undefined;
let dir: string;
let port: number;
let report: Report;
let htmlPath: string;
let mixed: Report;
let mixedDb: string;
let mixedHtml: string;

/**
 * A campaign in every state, sent in two bursts ten minutes apart, without receipts: the
 * report must explain each state and draw the quiet minutes as zero.
 */
async function mixedCampaign(): Promise<void> {
	mixedDb = join(dir, 'mixed.db');
	const ledger = new SqliteLedger(mixedDb);
	await ledger.createCampaign({
		name: 'mixed',
		csvPath: '/list.csv',
		propertySid: 'PR1',
		text: 'Hi {{Name}}, your order is ready',
		from: 'CloudTel',
		timeZone: 'AUS Eastern Standard Time',
	});
	const to = (line: number) => `+614915710${String(line).padStart(2, '0')}`;
	const pending = Array.from({ length: 11 }, (_, i) => i + 2);
	await ledger.importBatch(
		'mixed',
		[
			...pending.map((line) => ({
				line,
				to: to(line),
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			{
				line: 13,
				segments: 0,
				status: 'invalid',
				errorCode: 'INVALID_NUMBER',
				message: 'To: not a number',
			},
			{ line: 14, to: to(2), segments: 1, status: 'duplicate' },
			{ line: 15, to: to(15), segments: 1, status: 'suppressed' },
		],
		15,
	);
	await ledger.markSubmitting('mixed', [2, 3, 4, 5], 1);
	await ledger.settle(
		'mixed',
		1,
		[2, 3, 4, 5].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-m${line}` })),
	);
	await ledger.markSubmitting('mixed', [6, 7, 8, 9, 10, 11], 2);
	await ledger.settle('mixed', 2, [
		...[6, 7, 8, 9].map((line) => ({
			line,
			status: 'accepted' as const,
			messageSid: `SM-m${line}`,
		})),
		...[10, 11].map((line) => ({ line, status: 'uncertain' as const })),
	]);
	await ledger.setPhase('mixed', 'cancelled');
	await ledger.cancelPending('mixed');
	await ledger.close();
	// The first burst ten minutes before the second.
	const db = new Database(mixedDb);
	db.prepare('UPDATE answers SET at = at - 600000 WHERE first = 2').run();
	db.close();
	mixedHtml = join(dir, 'mixed.html');
	const out = await cli([
		'campaign',
		'report',
		'--db',
		mixedDb,
		'--name',
		'mixed',
		'--json',
		'--html',
		mixedHtml,
	]);
	expect(out.code, out.stderr).toBe(0);
	mixed = JSON.parse(out.stdout) as Report;
}

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	dir = tempDir();
	port = await freePort();
	writeConfig(dir, {
		provider: { baseUrl: sandbox.url },
		db: 'worker.db',
		server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1', reportToken: TOKEN },
	});
	worker = await WorkerProcess.start(join(dir, 'worker.config.yaml'), {
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		CLOUDTEL_CALLBACK_SECRET: SECRET,
	});

	// A campaign from leased numbers, with receipts and replies to the worker.
	writeFileSync(
		join(dir, 'list.csv'),
		'Phone,Name\n' + NUMBERS.map((n, i) => `${n},N${i}`).join('\n') + '\n',
	);
	const db = join(dir, 'worker.db');
	const base = `http://127.0.0.1:${port}/callbacks/${SECRET}`;
	const run = await runCampaign(sandbox, {
		csv: join(dir, 'list.csv'),
		db,
		name: 'spring',
		text: 'Hi {{Name}}, reply YES to book',
		callbacks: base,
	});
	expect(run.code, run.stderr).toBe(0);
	const driver = new SandboxDriver(sandbox);
	const sent = (await driver.messages()).filter((m) => String(m.ExternalId).startsWith('spring:'));
	const leaseOf = (to: string) => sent.find((m) => m.To === to)!.From as string;
	await driver.reply('+61491571001', leaseOf('+61491571001'), 'YES please');
	await driver.reply('+61491571002', leaseOf('+61491571002'), 'STOP');
	await driver.reply('+61491571001', leaseOf('+61491571001'), 'and a second reply');
	await until(
		async () => {
			const status = JSON.parse(
				(await cli(['campaign', 'status', '--db', db, '--name', 'spring', '--json'])).stdout,
			) as { delivery: { awaitingReceipt: number; replied: number; optedOut: number } };
			return (
				status.delivery.awaitingReceipt === 0 &&
				status.delivery.replied === 2 &&
				status.delivery.optedOut === 1
			);
		},
		20_000,
		'the receipts and replies',
	);

	htmlPath = join(dir, 'spring.html');
	const out = await cli([
		'campaign',
		'report',
		'--db',
		db,
		'--name',
		'spring',
		'--json',
		'--html',
		htmlPath,
		'--price-per-segment',
		'0.045',
	]);
	expect(out.code, out.stderr).toBe(0);
	report = JSON.parse(out.stdout) as Report;
	await mixedCampaign();
	if (hasChromium)
		browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
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
	if (head === 'failuresByErrorCode')
		return report.failuresByErrorCode.find((e) => e.errorCode === key)?.count;
	if (head === 'failuresByCountry')
		return report.failuresByCountry.find((c) => c.country === key)?.count;
	return rest.reduce<unknown>(
		(v, k) => (v as Record<string, unknown> | undefined)?.[k],
		report[head],
	);
}

describe('campaign report', () => {
	it('--json counts the funnel, failures by ErrorCode and country, the time to receipt and the cost', () => {
		expect(report.funnel).toEqual({
			rows: 12,
			valid: 11,
			sent: 11,
			uncertain: 0,
			delivered: 8,
			failed: 3,
			replied: 2,
			optedOut: 1,
		});
		expect(report.receipts).toBe(true);
		expect(report.rowStates).toEqual([
			{ state: 'invalid', count: 1, meaning: expect.stringMatching(/^not sent: /) as string },
		]);
		expect(report.details).toMatchObject({
			text: 'Hi {{Name}}, reply YES to book',
			from: 'a leased number',
		});
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
		expect(report.segments).toEqual({
			sent: 11,
			pricePerSegment: 0.045,
			estimatedCost: 0.495,
			currency: null,
		});
		const sends = report.timeline as {
			sends: { count: number }[];
			deliveries: { delivered: number; failed: number }[];
		};
		expect(sends.sends.reduce((n, b) => n + b.count, 0)).toBe(11);
		expect(sends.deliveries.reduce((n, b) => n + b.delivered + b.failed, 0)).toBe(11);
	});

	it('the HTML is one self-contained file: no script, no outside resource', () => {
		const html = readFileSync(htmlPath, 'utf8');
		// url(#id) is a clip path inside the SVG itself.
		expect(html).not.toMatch(/<script|<link|src=|@import|url\((?!#)/i);
		expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
	});

	it.skipIf(!hasChromium && process.env.CI !== 'true')(
		'in headless Chromium: the numbers match --json, the charts rendered with a size, no console error, nothing fetched, fits a phone',
		async () => {
			expect(hasChromium, `CI must have Chromium at ${CHROMIUM}`).toBe(true);
			const context = await browser!.newContext({
				viewport: { width: 390, height: 844 },
				offline: true,
			});
			const page = await context.newPage();
			const problems: string[] = [];
			const fetched: string[] = [];
			page.on('console', (m) => {
				if (m.type() === 'error' || m.type() === 'warning')
					problems.push(`${m.type()}: ${m.text()}`);
			});
			page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
			page.on('request', (r) => {
				if (!r.url().startsWith('file:')) fetched.push(r.url());
			});
			await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });

			const figures = await page.$$eval('[data-figure]', (els) =>
				els.map((e) => ({
					path: e.getAttribute('data-figure')!,
					value: e.getAttribute('data-value')!,
					text: e.textContent!.trim(),
				})),
			);
			const paths = figures.map((f) => f.path);
			for (const key of Object.keys(report.funnel))
				if (key !== 'uncertain') expect(paths).toContain(`funnel.${key}`);
			for (const p of [
				'awaitingReceipt',
				'failuresByErrorCode.UNDELIVERABLE',
				'failuresByErrorCode.UNKNOWN_SUBSCRIBER',
				'failuresByCountry.AU',
				'receiptSeconds.p50',
				'receiptSeconds.p95',
				'segments.sent',
				'segments.estimatedCost',
			])
				expect(paths).toContain(p);
			for (const f of figures) {
				expect(Number(f.value), f.path).toBe(at(f.path));
				expect(Number(f.text.replace(/,/g, '')), f.path).toBe(at(f.path));
			}

			const charts = await page.$$eval('figure[data-chart]', (els) =>
				els.map((e) => {
					const svg = e.querySelector('svg');
					const box = svg?.getBoundingClientRect();
					const marks = svg
						? [...svg.querySelectorAll('path, rect')].filter((m) => {
								const b = m.getBoundingClientRect();
								return b.width > 0 && b.height > 0;
							}).length
						: 0;
					return {
						id: e.getAttribute('data-chart'),
						width: box?.width ?? 0,
						height: box?.height ?? 0,
						marks,
						text: svg?.textContent ?? '',
					};
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
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
				390,
			);
			expect(problems).toEqual([]);
			expect(fetched).toEqual([]);
			await context.close();
		},
		60_000,
	);

	it('the worker serves every campaign at GET /campaigns, behind the report token', async () => {
		const url = `http://127.0.0.1:${port}/campaigns`;
		expect((await fetch(url)).status).toBe(401);
		expect((await fetch(url, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(401);
		const list = await fetch(url, {
			headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' },
		});
		// The dashboard's list: each campaign with its phase and figures (dashboardRow.ts).
		expect(await list.json()).toMatchObject({
			campaigns: [
				{
					name: 'spring',
					report: '/campaigns/spring',
					link: expect.stringMatching(/^\/campaigns\/spring\?expires=\d+&signature=[\w-]+$/),
					phase: 'finished',
					sent: 11,
					delivered: 8,
					failed: 3,
					replied: 2,
					optedOut: 1,
				},
			],
		});
		const index = await (
			await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
		).text();
		const link = /href="(\/campaigns\/spring[^"]*)"/.exec(index)![1].replace(/&amp;/g, '&');
		expect(link).toMatch(/^\/campaigns\/spring\?expires=\d+&signature=/);
		expect(index).not.toContain(TOKEN);
		const served = (await (
			await fetch(`${url}/spring.json`, { headers: { authorization: `Bearer ${TOKEN}` } })
		).json()) as Report;
		// Made at another moment than `report`: its times may fall in the next minute.
		const timeless = (r: Report) => ({
			...r,
			generatedAt: '',
			details: { ...r.details, generatedLocal: '' },
		});
		expect(timeless(served)).toEqual({
			...timeless(report),
			segments: { sent: 11, pricePerSegment: null, estimatedCost: null, currency: null },
		});
		expect(served.details.generatedLocal).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
		const page = await fetch(`http://127.0.0.1:${port}${link}`);
		expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const html = await page.text();
		expect(html).toContain('data-figure="funnel.delivered" data-value="8"');
		expect(html).toContain('data-chart="timeline"><figcaption>');
		expect(
			(await fetch(`${url}/nope`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
		).toBe(404);
		// Neither token reaches the log.
		expect(worker!.text).not.toContain(TOKEN);
	});

	it.skipIf(!hasChromium && process.env.CI !== 'true')(
		'reads at 1366 and 390 px: chart text >= 11 px, charts capped, no two labels of a chart overlap, every row state explained',
		async () => {
			expect(hasChromium, `CI must have Chromium at ${CHROMIUM}`).toBe(true);
			for (const [file, name] of [
				[htmlPath, 'spring'],
				[mixedHtml, 'mixed'],
			] as const) {
				for (const width of [1366, 390]) {
					const context = await browser!.newContext({
						viewport: { width, height: 900 },
						offline: true,
					});
					const page = await context.newPage();
					await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
					const where = `${name} at ${width} px`;
					const charts = await page.$$eval('figure[data-chart] svg', (svgs) =>
						(svgs as SVGSVGElement[]).map((svg) => {
							const box = svg.getBoundingClientRect();
							const scale =
								box.width / (svg.viewBox.baseVal?.width || Number(svg.getAttribute('width')));
							const texts = [...svg.querySelectorAll('text')]
								.map((t) => ({
									text: t.textContent ?? '',
									box: t.getBoundingClientRect(),
									size: parseFloat(getComputedStyle(t).fontSize) * scale,
								}))
								.filter((t) => t.text.trim() !== '' && t.box.width > 0);
							return {
								id: svg.closest('figure')!.getAttribute('data-chart'),
								width: box.width,
								texts: texts.map((t) => ({
									text: t.text,
									size: t.size,
									x: t.box.x,
									y: t.box.y,
									w: t.box.width,
									h: t.box.height,
								})),
							};
						}),
					);
					expect(charts.length, where).toBeGreaterThan(0);
					for (const c of charts) {
						expect(c.width, `${where}: ${c.id} width`).toBeLessThanOrEqual(480);
						for (const t of c.texts)
							expect(t.size, `${where}: ${c.id} "${t.text}"`).toBeGreaterThanOrEqual(11);
						if (width >= 1366)
							for (const t of c.texts)
								expect(t.size, `${where}: ${c.id} "${t.text}"`).toBeLessThanOrEqual(18);
						// Bounding boxes, less half a pixel of anti-aliasing, of every pair of labels.
						for (let i = 0; i < c.texts.length; i++) {
							for (let j = i + 1; j < c.texts.length; j++) {
								const a = c.texts[i];
								const b = c.texts[j];
								const overlap =
									a.x + a.w - 0.5 > b.x &&
									b.x + b.w - 0.5 > a.x &&
									a.y + a.h - 0.5 > b.y &&
									b.y + b.h - 0.5 > a.y;
								expect(overlap, `${where}: ${c.id} "${a.text}" and "${b.text}" overlap`).toBe(
									false,
								);
							}
						}
					}
					// The page's own text too, and nothing wider than the screen.
					const smallest = await page.$$eval('body *', (els) =>
						Math.min(
							...els
								.filter(
									(e) =>
										!(e instanceof SVGElement) &&
										e.childNodes.length > 0 &&
										[...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== ''),
								)
								.map((e) => parseFloat(getComputedStyle(e).fontSize)),
						),
					);
					expect(smallest, where).toBeGreaterThanOrEqual(11);
					expect(
						await page.evaluate(() => document.documentElement.scrollWidth),
						where,
					).toBeLessThanOrEqual(width);
					if (process.env.CLOUDTEL_SCREENSHOTS)
						await page.screenshot({
							path: join(process.env.CLOUDTEL_SCREENSHOTS, `report-${name}-${width}.png`),
							fullPage: true,
						});
					await context.close();
				}
			}
		},
		120_000,
	);

	it('explains every row state, shows uncertain rows in the headline and the funnel, and no receipt figures when none were asked for', async () => {
		const html = readFileSync(mixedHtml, 'utf8');
		expect(mixed.funnel).toEqual({
			rows: 14,
			valid: 11,
			sent: 8,
			uncertain: 2,
			delivered: 0,
			failed: 0,
			replied: 0,
			optedOut: 0,
		});
		expect(mixed.receipts).toBe(false);
		expect(
			(mixed.rowStates as { state: string; count: number }[]).map((s) => [s.state, s.count]),
		).toEqual([
			['invalid', 1],
			['duplicate', 1],
			['suppressed', 1],
			['cancelled', 1],
			['uncertain', 2],
		]);
		expect(html).toContain('data-figure="funnel.uncertain" data-value="2"');
		expect(html).not.toContain('Awaiting receipt');
		expect(html).not.toContain('data-figure="funnel.delivered"');
		expect(html).toContain('Uncertain');
		for (const s of ['invalid', 'duplicate', 'suppressed', 'cancelled', 'uncertain'])
			expect(html).toMatch(
				new RegExp(
					`<th scope="row">${s}</th><td [^>]*>\\d+</td><td class="meaning">[^<]{20,}</td>`,
				),
			);
		expect(html).toContain('Hi {{Name}}, your order is ready');
		expect(html).toMatch(
			/\d{4}-\d\d-\d\d \d\d:\d\d UTC\+1[01] to \d{4}-\d\d-\d\d \d\d:\d\d UTC\+1[01] <span class="zone">\(Australia\/Sydney\)<\/span>/,
		);
		// Ten quiet minutes between the two sends are ten buckets of zero, not a straight line.
		const sends = (mixed.timeline as { sends: { count: number }[] }).sends.map((b) => b.count);
		expect(sends[0]).toBeGreaterThan(0);
		expect(sends[sends.length - 1]).toBeGreaterThan(0);
		expect(sends.slice(1, -1).every((c) => c === 0)).toBe(true);
		expect(sends.length).toBeGreaterThan(5);
		const text = await cli(['campaign', 'report', '--db', mixedDb, '--name', 'mixed']);
		expect(text.stdout).toContain(
			'funnel: rows 14, valid 11, sent 8, uncertain 2, replied 0, opted out 0',
		);
		expect(text.stdout).toMatch(/ {4}uncertain 2: may have been sent/);
		expect(text.stdout).toContain('no delivery receipt came');
		expect(text.stdout).not.toContain('awaiting receipt');
	});
});

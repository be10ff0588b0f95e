import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { recipients } from '../api/apiHarness';
import {
	ensureBuilt,
	freePort,
	ROOT,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';

/**
 * The campaigns dashboard in headless Chromium, as a marketer uses it: one sandbox and one
 * worker (SQLite: the store is not what is tested) with two slow API campaigns.
 */
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true')
	console.log(`dashboard browser test skipped: no Chromium at ${CHROMIUM}`);
const run = hasChromium || process.env.CI === 'true' ? describe : describe.skip;

const SECRET = 'dashboard-secret-0123456789';
const REPORT_TOKEN = 'dashboard-report-token-0123';
const API_TOKEN = 'dashboard-api-token-0123456';

let sandbox: RunningSandbox;
let worker: WorkerProcess | undefined;
let browser: Browser | undefined;
let base: string;
/** Another site (localhost, not 127.0.0.1) with a form aimed at the worker. */
let evil: Server | undefined;
let evilUrl: string;

async function api(method: string, path: string, body?: unknown): Promise<any> {
	const res = await fetch(`${base}/api${path}`, {
		method,
		headers: {
			authorization: `Bearer ${API_TOKEN}`,
			...(body !== undefined ? { 'content-type': 'application/json' } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return res.json();
}

const stateOf = async (name: string): Promise<string> =>
	(await api('GET', `/campaigns/${name}`)).campaign.state as string;

/** A campaign sending one message a second (a rate of 1, batches of 1): it sends for half a minute. */
async function slowCampaign(name: string, prefix: string): Promise<void> {
	const settings = {
		property: sandbox.demo.PropertySid,
		text: 'Hi {{first_name}}',
		rate: 1,
		batchSize: 1,
	};
	await api('PUT', `/campaigns/${name}`, settings);
	await api('PUT', `/campaigns/${name}/pages/1`, { recipients: recipients(0, 30, prefix) });
	await api('POST', `/campaigns/${name}/start`, { pages: 1 });
}

beforeAll(async () => {
	if (!hasChromium) return;
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
	const dir = tempDir();
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	const config = writeConfig(dir, {
		db: 'worker.db',
		server: {
			publicUrl: base,
			port,
			host: '127.0.0.1',
			secret: SECRET,
			reportToken: REPORT_TOKEN,
			apiToken: API_TOKEN,
		},
	});
	worker = await WorkerProcess.start(config, {
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	});
	await slowCampaign('spring-sale', '+614915740');
	await slowCampaign('winter-sale', '+614915741');
	await until(
		async () => (await api('GET', '/campaigns/spring-sale')).campaign.counts.accepted >= 1,
		20_000,
		'the first message sent',
	);
	evil = createServer((req, res) => {
		res.setHeader('content-type', 'text/html');
		res.end(
			`<!doctype html><form id="f" method="post" action="${base}/campaigns/spring-sale/pause"><input name="csrf" value="guess"><button>go</button></form>`,
		);
	});
	await new Promise<void>((r) => evil!.listen(0, 'localhost', () => r()));
	evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
	browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
	await browser?.close();
	evil?.close();
	await worker?.stop('SIGKILL');
	await sandbox?.close();
});

async function signIn(token: string, viewport = { width: 1366, height: 900 }, js = true) {
	const context = await browser!.newContext({ viewport, javaScriptEnabled: js });
	const page = await context.newPage();
	const problems: string[] = [];
	page.on('pageerror', (e) => problems.push(e.message));
	page.on('console', (m) => {
		if (m.type() === 'error') problems.push(m.text());
	});
	page.on('request', (r) => {
		if (!r.url().startsWith(base) && !r.url().startsWith(evilUrl))
			problems.push(`fetched ${r.url()}`);
	});
	await page.goto(`${base}/`);
	expect(new URL(page.url()).pathname).toBe('/sign-in');
	await page.fill('input[name="token"]', token);
	await Promise.all([page.waitForURL(`${base}/`), page.click('button[type="submit"]')]);
	return { context, page, problems };
}

const card = (page: Page, name: string) => page.locator(`article.campaign[data-name="${name}"]`);
const progressOf = (page: Page, name: string) =>
	card(page, name)
		.locator('progress')
		.evaluate((p) => (p as HTMLProgressElement).value);

run('the campaigns dashboard', () => {
	it('serves nothing without a token: a browser is sent to sign in, anything else 401', async () => {
		const page = await fetch(`${base}/campaigns`, {
			headers: { accept: 'text/html' },
			redirect: 'manual',
		});
		expect(page.status).toBe(303);
		expect(page.headers.get('location')).toBe('/sign-in?next=%2Fcampaigns');
		for (const path of ['/campaigns.json', '/campaigns/spring-sale']) {
			const res = await fetch(base + path);
			expect(res.status).toBe(401);
			expect(await res.text()).not.toContain('Hi ');
		}
		const post = await fetch(`${base}/campaigns/spring-sale/pause`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'csrf=x',
		});
		expect(post.status).toBe(401);
		const wrong = await fetch(`${base}/sign-in`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `token=${SECRET}`,
			redirect: 'manual',
		});
		expect(wrong.status).toBe(401);
		expect(wrong.headers.get('set-cookie')).toBeNull();
	});

	it('signs in with the API token (HttpOnly, SameSite=Strict cookie); a running campaign moves without a reload; pause and resume', async () => {
		const { context, page, problems } = await signIn(API_TOKEN);
		const [cookie] = await context.cookies();
		expect(cookie).toMatchObject({
			name: 'cloudtel_session',
			httpOnly: true,
			sameSite: 'Strict',
			path: '/',
		});
		expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(11 * 3600_000);
		// Running ones first.
		expect(await page.locator('article.campaign').first().getAttribute('data-phase')).toBe(
			'sending',
		);
		await page.evaluate(() => ((window as any).notReloaded = true));
		const before = await progressOf(page, 'spring-sale');
		await page.waitForFunction(
			([name, was]) =>
				(
					document.querySelector(
						`article.campaign[data-name="${name}"] progress`,
					) as HTMLProgressElement
				).value > was,
			['spring-sale', before] as const,
			{ timeout: 20_000 },
		);
		expect(await page.evaluate(() => (window as any).notReloaded)).toBe(true);
		expect(await card(page, 'spring-sale').locator('[data-f="sent"]').textContent()).toMatch(
			/^\d+ of 30$/,
		);

		await card(page, 'spring-sale').getByRole('button', { name: /Pause/ }).click();
		await page.waitForURL(/done=pause/);
		expect(await card(page, 'spring-sale').getAttribute('data-phase')).toBe('paused');
		expect(await card(page, 'spring-sale').locator('[data-f="why"]').textContent()).toBe(
			'paused by a person',
		);
		expect(await stateOf('spring-sale')).toBe('paused');

		await card(page, 'spring-sale')
			.getByRole('button', { name: /Resume/ })
			.click();
		await page.waitForURL(/done=resume/);
		expect(await stateOf('spring-sale')).toBe('sending');
		expect(problems).toEqual([]);
		await context.close();
	}, 60_000);

	it('cancels only once confirmed: a dialog with script, a page of its own without', async () => {
		const { context, page } = await signIn(API_TOKEN, undefined, false);
		await card(page, 'winter-sale')
			.getByRole('button', { name: /Cancel/ })
			.click();
		await expect.poll(() => page.locator('h2').first().textContent()).toBe('Cancel winter-sale?');
		expect(await stateOf('winter-sale')).toBe('sending');
		await page.getByRole('button', { name: 'Yes, cancel winter-sale' }).click();
		await page.waitForURL(/done=cancel/);
		expect(await card(page, 'winter-sale').getAttribute('data-phase')).toBe('cancelled');
		expect(await stateOf('winter-sale')).toBe('cancelled');
		await context.close();

		const live = await signIn(API_TOKEN);
		live.page.once('dialog', (d) => void d.accept());
		await card(live.page, 'spring-sale')
			.getByRole('button', { name: /Cancel/ })
			.click();
		await live.page.waitForURL(/done=cancel/);
		expect(await stateOf('spring-sale')).toBe('cancelled');
		await live.context.close();
	}, 60_000);

	it('with the report token: read only, no control, and a POST refused 403', async () => {
		const { context, page } = await signIn(REPORT_TOKEN);
		expect(await page.locator('article.campaign').count()).toBe(2);
		expect(
			await page
				.locator('form[action*="/pause"], form[action*="/cancel"], form[action*="/resume"]')
				.count(),
		).toBe(0);
		const res = await page.request.post(`${base}/campaigns/spring-sale/resume`, {
			form: { csrf: 'anything' },
			headers: { origin: base },
		});
		expect(res.status()).toBe(403);
		await context.close();
	});

	it("refuses another site's form 403, signed in or not", async () => {
		const { context, page } = await signIn(API_TOKEN);
		const other = await context.newPage();
		await other.goto(evilUrl);
		const [answer] = await Promise.all([
			other.waitForResponse((r) => r.url().endsWith('/campaigns/spring-sale/pause')),
			other.click('button'),
		]);
		expect(answer.status()).toBe(403);
		// The session's own form token does not help a request another origin sends.
		const csrf = await page.locator('input[name="csrf"]').first().inputValue();
		const forged = await page.request.post(`${base}/campaigns/winter-sale/pause`, {
			form: { csrf },
			headers: { origin: evilUrl.slice(0, -1), 'sec-fetch-site': 'cross-site' },
		});
		expect(forged.status()).toBe(403);
		await context.close();
	});

	it("a campaign's page: live card, guardrails, errors by code, its report, and the outcome and evidence CSVs", async () => {
		const { context, page, problems } = await signIn(REPORT_TOKEN);
		await page.click('a[href="/campaigns/spring-sale"]');
		await page.waitForURL(`${base}/campaigns/spring-sale`);
		expect(await page.locator('h1').first().textContent()).toBe('Campaign spring-sale');
		expect(await card(page, 'spring-sale').getAttribute('data-phase')).toBe('cancelled');
		expect(await page.locator('[data-f="guard"]').textContent()).toMatch(
			/Not paused by any guardrail/,
		);
		expect(await page.locator('[data-figure="funnel.rows"]').getAttribute('data-value')).toBe('30');
		expect(await page.locator('[data-chart="timeline"]').count()).toBe(1);
		for (const file of ['outcome.csv', 'evidence.csv'])
			expect(await page.locator(`a[href="/campaigns/spring-sale/${file}"]`).count()).toBe(1);
		const outcome = await page.request.get(`${base}/campaigns/spring-sale/outcome.csv`);
		expect(outcome.headers()['content-disposition']).toBe(
			'attachment; filename="spring-sale-outcome.csv"',
		);
		const lines = (await outcome.text()).trim().split('\n');
		expect(lines[0]).toBe('row,To,status,MessageSid,ErrorCode,message');
		expect(lines).toHaveLength(31);
		expect(lines.filter((l) => l.includes(',accepted,')).length).toBeGreaterThan(0);
		expect(lines.filter((l) => l.includes(',cancelled,')).length).toBeGreaterThan(0);
		const evidence = await (
			await page.request.get(`${base}/campaigns/spring-sale/evidence.csv`)
		).text();
		expect(evidence.split('\r\n')[0]).toMatch(/^line,number,consent_source,/);
		expect((await fetch(`${base}/campaigns/spring-sale/evidence.csv`)).status).toBe(401);
		expect(problems).toEqual([]);
		await context.close();
	});

	it('reads at 1366 and 390 px: no horizontal scroll, text >= 12 px, no serious axe violation, keyboard focus shown, dark mode', async () => {
		const shots = process.env.CLOUDTEL_DASHBOARD_SCREENSHOTS === '1';
		for (const width of [1366, 390]) {
			const { context, page } = await signIn(API_TOKEN, { width, height: 900 });
			for (const path of ['/', '/campaigns/spring-sale']) {
				await page.goto(base + path);
				for (const scheme of ['light', 'dark'] as const) {
					await page.emulateMedia({ colorScheme: scheme });
					const fit = await page.evaluate(() => ({
						scroll: document.documentElement.scrollWidth,
						client: document.documentElement.clientWidth,
					}));
					expect(fit.scroll, `${path} at ${width} px`).toBeLessThanOrEqual(fit.client);
					const smallest = await page.evaluate(() => {
						let min = Infinity;
						for (const el of document.body.querySelectorAll('*')) {
							const text = [...el.childNodes].some(
								(n) => n.nodeType === 3 && n.textContent!.trim(),
							);
							if (text && (el as HTMLElement).offsetParent !== null && !el.closest('svg'))
								min = Math.min(min, parseFloat(getComputedStyle(el).fontSize));
						}
						return min;
					});
					expect(smallest, `${path} at ${width} px`).toBeGreaterThanOrEqual(12);
					// Evaluated, not a <script>: the page's policy lets no inline script run.
					await page.evaluate(axe.source);
					const found = await page.evaluate(async () => {
						const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
						return r.violations
							.filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
							.map(
								(v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
							);
					});
					expect(found, `${path} at ${width} px, ${scheme}`).toEqual([]);
				}
				const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
				expect(dark).toBe('rgb(17, 20, 24)');
				await page.emulateMedia({ colorScheme: 'light' });
				if (shots && path === '/') {
					mkdirSync(join(ROOT, 'docs/images'), { recursive: true });
					await page.screenshot({
						path: join(ROOT, `docs/images/dashboard-${width}.png`),
						fullPage: true,
					});
				}
			}
			// Real links and buttons, reached with Tab, with a visible ring.
			await page.goto(`${base}/`);
			let ring = '';
			for (let i = 0; i < 8 && !ring; i++) {
				await page.keyboard.press('Tab');
				ring = await page.evaluate(() => {
					const el = document.activeElement as HTMLElement;
					return el?.tagName === 'BUTTON' ? getComputedStyle(el).outlineStyle : '';
				});
			}
			expect(ring).toBe('solid');
			await context.close();
		}
	}, 60_000);
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
	API_TOKEN,
	card,
	DashboardRig,
	describeInChromium,
	hasChromium,
	REPORT_TOKEN,
	SECRET,
} from './dashboardRig';

/**
 * The campaigns dashboard in headless Chromium, as a marketer uses it: access, sign-in, live
 * progress and the controls, on one worker with two slow API campaigns (dashboardRig.ts).
 * Its pages' layout and the campaign page: dashboardPages.test.ts.
 */
let rig: DashboardRig;
let base: string;
/** Another site (localhost, not 127.0.0.1) with a form aimed at the worker. */
let evil: Server | undefined;
let evilUrl: string;

beforeAll(async () => {
	if (!hasChromium) return;
	rig = await DashboardRig.start([
		['spring-sale', '+614915740'],
		['winter-sale', '+614915741'],
	]);
	base = rig.base;
	evil = createServer((_req, res) => {
		res.setHeader('content-type', 'text/html');
		res.end(
			`<!doctype html><form id="f" method="post" action="${base}/campaigns/spring-sale/pause"><input name="csrf" value="guess"><button>go</button></form>`,
		);
	});
	await new Promise<void>((r) => evil!.listen(0, 'localhost', () => r()));
	evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
}, 120_000);

afterAll(async () => {
	evil?.close();
	await rig?.close();
});

const signIn = (token: string, viewport?: { width: number; height: number }, js = true) =>
	rig.signIn(token, viewport, js, [evilUrl]);
const stateOf = (name: string) => rig.stateOf(name);
const progressOf = (page: Page, name: string) =>
	card(page, name)
		.locator('progress')
		.evaluate((p) => (p as HTMLProgressElement).value);

describeInChromium('the campaigns dashboard', () => {
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
});

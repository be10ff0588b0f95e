import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, until } from '../daemon/harness';
import {
	API_TOKEN,
	card,
	DashboardRig,
	describeInChromium,
	hasChromium,
	REPORT_TOKEN,
} from './dashboardRig';

/**
 * The dashboard's pages in headless Chromium: a campaign's page and its downloads, and every
 * page at 1366 and 390 px, light and dark, checked by axe-core. One worker with one slow API
 * campaign (dashboardRig.ts); access and controls: dashboardBrowser.test.ts.
 */
let rig: DashboardRig;
let base: string;

beforeAll(async () => {
	if (!hasChromium) return;
	rig = await DashboardRig.start([['spring-sale', '+614915742']]);
	base = rig.base;
}, 120_000);

afterAll(async () => rig?.close());

const signIn = (token: string, viewport?: { width: number; height: number }) =>
	rig.signIn(token, viewport);

describeInChromium("the dashboard's pages", () => {
	it("a campaign's page: live card, guardrails, errors by code, its report, and the outcome and evidence CSVs", async () => {
		const { context, page, problems } = await signIn(REPORT_TOKEN);
		await page.click('a[href="/campaigns/spring-sale"]');
		await page.waitForURL(`${base}/campaigns/spring-sale`);
		expect(await page.locator('h1').first().textContent()).toBe('Campaign spring-sale');
		expect(await card(page, 'spring-sale').getAttribute('data-phase')).toBe('sending');
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
		expect(lines.filter((l) => l.includes(',pending,')).length).toBeGreaterThan(0);
		const evidence = await (
			await page.request.get(`${base}/campaigns/spring-sale/evidence.csv`)
		).text();
		expect(evidence.split('\r\n')[0]).toMatch(/^line,number,consent_source,/);
		expect((await fetch(`${base}/campaigns/spring-sale/evidence.csv`)).status).toBe(401);
		expect(problems).toEqual([]);
		await context.close();
	});

	it('lists an API draft (settings put, not started) as a draft, and opens its page', async () => {
		const put = await rig.api('PUT', '/campaigns/autumn-draft', {
			property: '0b6f7a52-3c1d-4e8f-9a2b-5c6d7e8f9a0b',
			text: 'Hello',
		});
		expect(put.campaign.state).toBe('draft');
		const listed = (await (
			await fetch(`${base}/campaigns.json?q=autumn`, {
				headers: { authorization: `Bearer ${REPORT_TOKEN}`, accept: 'application/json' },
			})
		).json()) as { campaigns: { name: string; phase: string; why: string }[] };
		expect(listed.campaigns.map((c) => [c.name, c.phase])).toEqual([['autumn-draft', 'draft']]);
		const { context, page } = await signIn(REPORT_TOKEN);
		await page.goto(`${base}/campaigns?phase=draft`);
		expect(await page.locator('article.campaign').count()).toBe(1);
		expect(await card(page, 'autumn-draft').locator('[data-f="why"]').textContent()).toMatch(
			/not started/,
		);
		await page.click('a[href="/campaigns/autumn-draft"]');
		await page.waitForURL(`${base}/campaigns/autumn-draft`);
		expect(await page.locator('h1').first().textContent()).toBe('Campaign autumn-draft');
		expect(await card(page, 'autumn-draft').getAttribute('data-phase')).toBe('draft');
		await context.close();
	});

	it('lists an API campaign that failed (a property the provider does not know) as failed, with why, and opens its page', async () => {
		await rig.api('PUT', '/campaigns/winter-refused', {
			property: '0b6f7a52-3c1d-4e8f-9a2b-5c6d7e8f9a0b',
			text: 'Hello',
		});
		await rig.api('PUT', '/campaigns/winter-refused/pages/1', {
			recipients: [{ phone: '+61491570156' }],
		});
		await rig.api('POST', '/campaigns/winter-refused/start');
		await until(async () => (await rig.stateOf('winter-refused')) === 'failed', 20_000, 'failed');
		const { context, page } = await signIn(REPORT_TOKEN);
		await page.goto(`${base}/campaigns?phase=failed`);
		expect(await page.locator('article.campaign').count()).toBe(1);
		const why = await card(page, 'winter-refused').locator('[data-f="why"]').textContent();
		expect(why).toMatch(/^failed: property: /);
		await page.click('a[href="/campaigns/winter-refused"]');
		await page.waitForURL(`${base}/campaigns/winter-refused`);
		expect(await card(page, 'winter-refused').getAttribute('data-phase')).toBe('failed');
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

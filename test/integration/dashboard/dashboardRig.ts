import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { recipients } from '../api/apiHarness';
import {
	ensureBuilt,
	freePort,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';

/** Debian's chromium, as the report's browser test; CI has it, elsewhere the files are skipped without it. */
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== 'true')
	console.log(`dashboard browser tests skipped: no Chromium at ${CHROMIUM}`);
export const describeInChromium =
	hasChromium || process.env.CI === 'true' ? describe : describe.skip;

export const SECRET = 'dashboard-secret-0123456789';
export const REPORT_TOKEN = 'dashboard-report-token-0123';
export const API_TOKEN = 'dashboard-api-token-0123456';

/**
 * One sandbox and one worker (SQLite: the store is not what is tested) with the report and
 * API tokens, slow API campaigns sending one message a second, and Chromium.
 */
export class DashboardRig {
	private constructor(
		readonly base: string,
		readonly browser: Browser,
		private readonly sandbox: RunningSandbox,
		private readonly worker: WorkerProcess,
	) {}

	static async start(campaigns: [name: string, prefix: string][]): Promise<DashboardRig> {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		const config = writeConfig(tempDir(), {
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
		const worker = await WorkerProcess.start(config, {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
		});
		const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
		const rig = new DashboardRig(base, browser, sandbox, worker);
		const settings = {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			rate: 1,
			batchSize: 1,
		};
		for (const [name, prefix] of campaigns) {
			await rig.api('PUT', `/campaigns/${name}`, settings);
			await rig.api('PUT', `/campaigns/${name}/pages/1`, { recipients: recipients(0, 30, prefix) });
			await rig.api('POST', `/campaigns/${name}/start`, { pages: 1 });
		}
		await until(
			async () =>
				(await rig.api('GET', `/campaigns/${campaigns[0][0]}`)).campaign.counts.accepted >= 1,
			20_000,
			'the first message sent',
		);
		return rig;
	}

	async close(): Promise<void> {
		await this.browser.close();
		await this.worker.stop('SIGKILL');
		await this.sandbox.close();
	}

	async api(method: string, path: string, body?: unknown): Promise<any> {
		const res = await fetch(`${this.base}/api${path}`, {
			method,
			headers: {
				authorization: `Bearer ${API_TOKEN}`,
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return res.json();
	}

	async stateOf(name: string): Promise<string> {
		return (await this.api('GET', `/campaigns/${name}`)).campaign.state as string;
	}

	/**
	 * A new browser context signed in through the sign-in page the dashboard sends it to;
	 * `problems`: script errors, and anything fetched from elsewhere than `allowed`.
	 */
	async signIn(
		token: string,
		viewport = { width: 1366, height: 900 },
		js = true,
		allowed: string[] = [],
	): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
		const context = await this.browser.newContext({ viewport, javaScriptEnabled: js });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on('pageerror', (e) => problems.push(e.message));
		page.on('console', (m) => {
			if (m.type() === 'error') problems.push(m.text());
		});
		page.on('request', (r) => {
			if (![this.base, ...allowed].some((a) => r.url().startsWith(a)))
				problems.push(`fetched ${r.url()}`);
		});
		await page.goto(`${this.base}/`);
		expect(new URL(page.url()).pathname).toBe('/sign-in');
		await page.fill('input[name="token"]', token);
		await Promise.all([page.waitForURL(`${this.base}/`), page.click('button[type="submit"]')]);
		return { context, page, problems };
	}
}

export const card = (page: Page, name: string) =>
	page.locator(`article.campaign[data-name="${name}"]`);

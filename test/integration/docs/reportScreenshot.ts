import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { expect } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
/** The picture worker/README.md shows, and the words it holds, which the test compares. */
export const REPORT_PNG = join(ROOT, 'docs/images/report.png');
export const REPORT_WORDS = join(ROOT, 'docs/images/report.txt');
const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const REGENERATE =
	'CLOUDTEL_UPDATE_SCREENSHOTS=1 npx vitest run test/integration/docs/workerReadme.test.ts';

/**
 * The page's text as a person reads it, with every figure, date and time masked: those
 * differ by run (1.2 s in one, 1 s in the next), while a changed heading, label or sentence
 * means the picture is stale.
 */
export function reportWords(innerText: string): string {
	return (
		innerText
			.replace(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b/g, 'Day')
			.replace(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b/g, 'Mon')
			.replace(/\d+(?:[.,]\d+)*/g, '#')
			.split('\n')
			.map((l) => l.replace(/\s+/g, ' ').trim())
			.filter((l) => l !== '')
			.join('\n') + '\n'
	);
}

/**
 * Compares the quick start's report, opened in Chromium at 1366 px, with the words stored
 * beside its screenshot; with CLOUDTEL_UPDATE_SCREENSHOTS=1 it takes the screenshot anew.
 */
export async function checkReportScreenshot(html: string): Promise<void> {
	if (!existsSync(CHROMIUM)) {
		// CI installs Chromium (.ci/run): there a missing one is a failure, not a skip.
		if (process.env.CI === 'true') throw new Error(`no Chromium at ${CHROMIUM}`);
		console.log(`report screenshot not checked: no Chromium at ${CHROMIUM}`);
		return;
	}
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	try {
		const context = await browser.newContext({
			viewport: { width: 1366, height: 900 },
			offline: true,
		});
		const page = await context.newPage();
		await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
		const update = process.env.CLOUDTEL_UPDATE_SCREENSHOTS === '1';
		if (update) await page.screenshot({ path: REPORT_PNG, fullPage: true });
		// A chart's axis labels follow the run's timing; its title and legend stay in the words.
		const words = reportWords(
			await page.evaluate(() => {
				for (const svg of document.querySelectorAll('svg')) svg.remove();
				return document.body.innerText;
			}),
		);
		if (update) return writeFileSync(REPORT_WORDS, words);
		expect(
			words,
			`docs/images/report.png shows an older report than the code writes now: take it again with ${REGENERATE}`,
		).toBe(readFileSync(REPORT_WORDS, 'utf8'));
	} finally {
		await browser.close();
	}
}

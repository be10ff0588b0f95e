// Every ```sh block of worker/README.md runs, in order, as a reader would type it (readmeReader.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/freshBuild';
import {
	mailSink,
	newReader,
	ROOT,
	runReadme,
	stopDaemons,
	until,
	type Reader,
} from './readmeReader';
import { checkReportScreenshot } from './reportScreenshot';

beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);

describe('every shell block of worker/README.md runs', () => {
	let worker: Reader;

	afterAll(async () => worker && stopDaemons(worker));

	it('the quick start sends with receipts, e-mails replies and honours STOP; then every task', async () => {
		worker = await newReader();
		const relay = await mailSink(worker.ports[2525]);
		try {
			// The quick start's replies reach the mail relay while its worker still runs.
			const replied = () =>
				relay.mails.some((m) => m.includes('YES please')) &&
				relay.mails.some((m) => m.includes('+61491570004') && m.includes('STOP')) &&
				relay.mails.some((m) => m.includes('YES, book me'));
			const blocks = await runReadme('worker/README.md', worker, () => until(replied));
			expect(blocks.filter((b) => b.noRun).length).toBeLessThanOrEqual(3);
		} finally {
			await relay.close();
		}
		// Each names the number that replied and the campaign it answered.
		for (const [number, text] of [
			['+61491570011', 'YES please'],
			['+61491570004', 'STOP'],
		]) {
			const mail = relay.mails.find((m) => m.includes(number) && m.includes(text));
			expect(mail, `the e-mail of ${number}'s ${text}`).toMatch(/^Subject: .*to spring/m);
		}
		// The cron campaign's run sent now: the reply to it names the run.
		const cron = relay.mails.find((m) => m.includes('+61491570017') && m.includes('YES, book me'));
		expect(cron, "the e-mail of Noah's reply to weekly-offer").toMatch(
			/^Subject: .*to weekly-offer\r?$[\s\S]*^Run: weekly-offer-\d{8}T\d{6}Z\r?$/m,
		);
	}, 120_000);

	it("its report screenshot shows the report today's code writes", async () => {
		expect(worker, 'the quick start ran').toBeDefined();
		await checkReportScreenshot(join(worker.dir, 'spring.html'));
	}, 60_000);

	it('leaves `git status` clean: what its commands write is in .gitignore', () => {
		expect(worker, 'the quick start ran').toBeDefined();
		// Dotfiles are this test's own (and HOME's); examples/ is the repository's.
		const left = readdirSync(worker.dir, { withFileTypes: true })
			.filter((e) => !e.name.startsWith('.') && e.name !== 'examples')
			.map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
		const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], {
			cwd: ROOT,
			input: left.join('\n'),
			encoding: 'utf8',
		}).stdout.split('\n');
		expect(left.filter((f) => !ignored.includes(f))).toEqual([]);
	});
});

import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { campaignStatus, campaignStatusText, runCampaign, sentBy } from '../../support/runCampaign';
import { dbArg, storeBackends } from '../../support/storeBackends';
import { cli, numbersCsv, sandboxForTests, summaryOf, tempDir, writeCsv } from '../worker/harness';

// About the store (the cap is reserved in it): both backends.
let sandbox: RunningSandbox;
sandboxForTests((s) => ({ sandbox } = s));

describe.each(storeBackends())('campaign run --max-cost ($name)', (backend) => {
	it('the dry run says how many rows fit; the run pauses (exit 4) before passing it, and a higher cap resumes with no row twice', async () => {
		const db = dbArg(backend);
		const name = `cap-${backend.name}`;
		const csv = writeCsv(
			tempDir(),
			'list.csv',
			numbersCsv(10, backend.name === 'sqlite' ? 0 : 100),
		);
		// One segment a message at 0.05: 0.30 pays for 6; batches of 4 cut the second short.
		const run = (maxCost: string, extra: string[] = []) =>
			runCampaign(sandbox, {
				csv,
				db,
				name,
				text: 'Hi {{Name}}',
				rate: '0',
				flags: [
					'--batch-size',
					'4',
					'--price-per-segment',
					'0.05',
					'--max-cost',
					maxCost,
					...extra,
				],
			});

		const dry = await run('0.30', ['--dry-run']);
		expect(dry.code, dry.stderr).toBe(0);
		expect((summaryOf(dry) as { forecast?: unknown }).forecast).toMatchObject({
			spendCap: { maxCost: 0.3, rowsWithin: 6, costWithin: 0.3 },
		});

		const first = await run('0.30');
		expect(first.code, first.stderr + first.stdout).toBe(4);
		const paused = summaryOf(first) as ReturnType<typeof summaryOf> & { pausedBy?: string };
		expect(paused.pausedBy).toBe('spend-cap');
		expect(paused.rows).toMatchObject({ accepted: 6, pending: 4, submitting: 0 });
		expect(paused.message).toMatch(/spent 0\.30 of --max-cost 0\.30/);
		const ours = () => sentBy(sandbox, name);
		expect(await ours()).toHaveLength(6);

		expect(await campaignStatus(db, name)).toMatchObject({
			paused: true,
			pausedBy: 'spend-cap',
			spent: 0.3,
			rows: { accepted: 6, pending: 4 },
		});
		const text = await campaignStatusText(db, name);
		expect(text).toMatch(/paused by its spend-cap/);
		expect(text).toMatch(/spend-cap: spent 0\.30 of --max-cost 0\.30 .* 4 rows stay pending/);

		const report = await cli(['campaign', 'report', '--db', db, '--name', name, '--json']);
		expect(JSON.parse(report.stdout).guardrails).toMatchObject({
			pausedBy: 'spend-cap',
			spent: 0.3,
		});

		// The same cap again sends nothing more: it pauses at once.
		const again = await run('0.30');
		expect(again.code, again.stderr + again.stdout.slice(-3000)).toBe(4);
		expect(await ours()).toHaveLength(6);

		const rest = await run('1');
		expect(rest.code, rest.stderr + rest.stdout).toBe(0);
		expect(summaryOf(rest).rows).toMatchObject({ accepted: 10, pending: 0 });
		const sent = await ours();
		expect(sent).toHaveLength(10);
		expect(new Set(sent.map((m) => m.ExternalId)).size).toBe(10);
		expect(await campaignStatus(db, name)).toMatchObject({
			paused: false,
			pausedBy: null,
			spent: 0.5,
		});
	});
});

import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { campaignStatus, runCampaign } from '../../support/runCampaign';
import {
	numbersCsv,
	sandboxForTests,
	sandboxMessages,
	summaryOf,
	tempDir,
	writeCsv,
} from '../worker/harness';

// The day's spend is kept as the campaign's is (spendCap.cli.test.ts runs both backends): SQLite here.
let sandbox: RunningSandbox;
sandboxForTests((s) => ({ sandbox } = s));

it('--daily-max-cost is shared by the campaigns of a ledger: the second one pauses (exit 4) where the day is spent', async () => {
	const dir = tempDir();
	const db = `${dir}/ledger.db`;
	const run = (name: string, csv: string) =>
		runCampaign(sandbox, {
			csv,
			db,
			name,
			text: 'Hi {{Name}}',
			rate: '0',
			flags: ['--price-per-segment', '0.01', '--daily-max-cost', '0.05'],
		});
	const first = await run('day-one', writeCsv(dir, 'a.csv', numbersCsv(3, 500)));
	expect(first.code, first.stderr).toBe(0);
	const second = await run('day-two', writeCsv(dir, 'b.csv', numbersCsv(4, 600)));
	expect(second.code, second.stderr + second.stdout.slice(-1500)).toBe(4);
	expect(summaryOf(second).rows).toMatchObject({ accepted: 2, pending: 2 });
	expect((summaryOf(second) as { pausedBy?: string }).pausedBy).toBe('daily-spend-cap');
	const status = await campaignStatus(db, 'day-two');
	expect(status).toMatchObject({ paused: true, pausedBy: 'daily-spend-cap' });
	expect(status.pausedReason).toMatch(
		/the day's spend across campaigns is 0\.05 of --daily-max-cost 0\.05/,
	);
	const sent = (await sandboxMessages(sandbox)).filter((m) =>
		/^day-(one|two):/.test(m.ExternalId ?? ''),
	);
	expect(sent).toHaveLength(5);
});

import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import {
	campaignStatus,
	campaignStatusText,
	runCampaign,
	sentBy as sentOf,
} from '../../support/runCampaign';
import { dbArg, storeBackends } from '../../support/storeBackends';
import { cli, numbersCsv, sandboxForTests, summaryOf, tempDir, writeCsv } from '../worker/harness';

// About the store (the count is every campaign's messages in it): both backends.
let sandbox: RunningSandbox;
sandboxForTests((s) => ({ sandbox } = s));

describe.each(storeBackends())('campaign run --frequency-cap ($name)', (backend) => {
	it('a number sent N messages within the period by any campaign ends capped, judged when its row is sent', async () => {
		const db = dbArg(backend);
		const dir = tempDir();
		const base = backend.name === 'sqlite' ? 0 : 500;
		const csv = (name: string, n: number, start: number) =>
			writeCsv(dir, `${name}.csv`, numbersCsv(n, base + start));
		const run = (name: string, list: string, extra: string[] = []) =>
			runCampaign(sandbox, {
				csv: list,
				db,
				name,
				text: 'Hi {{Name}}',
				rate: '0',
				flags: ['--batch-size', '3', ...extra],
			});
		const sentBy = async (name: string) => (await sentOf(sandbox, name)).map((m) => m.To).sort();
		const number = (i: number) => `+614${String(10_000_000 + base + i).slice(-8)}`;

		// Numbers 0-3 had a message from a campaign of no cap.
		const first = await run(`first-${backend.name}`, csv('first', 4, 0));
		expect(first.code, first.stderr).toBe(0);

		// A capped campaign's rows are imported before any other message to 10 and 11 (a spend
		// cap of 0 pauses it before it sends); another campaign then sends to them, and to 0 and 1.
		const late = `late-${backend.name}`;
		const lateList = csv('late', 2, 10);
		const held = await run(late, lateList, [
			'--frequency-cap',
			'1/24h',
			...['--max-cost', '0', '--price-per-segment', '0.05'],
		]);
		expect(held.code, held.stderr + held.stdout.slice(-2000)).toBe(4);
		expect(summaryOf(held).rows).toMatchObject({ pending: 2, capped: 0 });
		const meanwhile = writeCsv(
			dir,
			'meanwhile.csv',
			numbersCsv(2, base) + numbersCsv(2, base + 10).slice('Phone,Name\n'.length),
		);
		expect((await run(`meanwhile-${backend.name}`, meanwhile)).code).toBe(0);

		// The dry run counts the capped rows; the run holds them back and sends the others.
		const second = `second-${backend.name}`;
		const list = csv('second', 6, 0);
		const dry = await run(second, list, ['--frequency-cap', '1/24h', '--dry-run']);
		expect(dry.code, dry.stderr).toBe(0);
		expect(summaryOf(dry).rows).toMatchObject({ pending: 2, capped: 4 });
		const capped = await run(second, list, ['--frequency-cap', '1/24h']);
		expect(capped.code, capped.stderr + capped.stdout.slice(-2000)).toBe(0);
		expect(summaryOf(capped).rows).toMatchObject({ accepted: 2, capped: 4, pending: 0 });
		expect(await sentBy(second)).toEqual([number(4), number(5)]);

		// Two within the day: 0 and 1 had two (first, meanwhile), 2 to 5 one each.
		const third = `third-${backend.name}`;
		const again = await run(third, list, ['--frequency-cap', '2/24h']);
		expect(summaryOf(again).rows).toMatchObject({ accepted: 4, capped: 2 });
		expect(await sentBy(third)).toEqual([2, 3, 4, 5].map(number));

		// Judged when sent: the rows imported before `meanwhile` sent to their numbers.
		const resumed = await run(late, lateList, [
			'--frequency-cap',
			'1/24h',
			...['--max-cost', '1', '--price-per-segment', '0.05'],
		]);
		expect(resumed.code, resumed.stderr + resumed.stdout.slice(-2000)).toBe(0);
		expect(summaryOf(resumed).rows).toMatchObject({ accepted: 0, capped: 2, pending: 0 });
		expect(await sentBy(late)).toEqual([]);

		// How a person reads it: the same on both backends (the counts above are the store's).
		if (backend.name === 'postgres') return;
		const json = await campaignStatus(db, second);
		expect(json.rows).toMatchObject({ accepted: 2, capped: 4 });
		expect(json.firstErrors[0]).toMatchObject({
			line: 2,
			code: 'FREQUENCY_CAPPED',
			reason: expect.stringMatching(/sent 1 message within 24h already \(--frequency-cap 1\/24h\)/),
		});
		expect(await campaignStatusText(db, second)).toMatch(/capped 4/);
		const report = await cli(['campaign', 'report', '--db', db, '--name', second, '--json']);
		expect(report.code, report.stderr).toBe(0);
		expect(JSON.stringify(JSON.parse(report.stdout))).toMatch(/"capped":4/);
	});

	it('refuses a frequency cap that is not N/PERIOD, naming the flag', async () => {
		if (backend.name === 'postgres') return;
		const list = writeCsv(tempDir(), 'list.csv', numbersCsv(1));
		const bad = await runCampaign(sandbox, {
			csv: list,
			db: dbArg(backend),
			name: 'bad',
			text: 'Hi',
			flags: ['--frequency-cap', '1/day'],
		});
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(
			/--frequency-cap: must be N\/PERIOD such as 1\/24h or 3\/7d \(got "1\/day"\)/,
		);
	});
});

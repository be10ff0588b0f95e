import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { runCampaign, type CampaignRun } from '../../support/runCampaign';
import { sandboxForTests, sandboxMessages, summaryOf, tempDir, writeCsv } from '../worker/harness';

// Judged at import, in the engine: one backend (SQLite).
let sandbox: RunningSandbox;
sandboxForTests((s) => ({ sandbox } = s));

const LIST = `Phone,Name
0491 570 156,Au mobile
02 9374 4000,Au landline
+64 21 123 4567,Nz mobile
+44 7400 123456,Gb mobile
+44 7400 123457,Gb mobile 2
+1 201 555 0123,Us number
`;

it('--countries and landlines: the dry run counts them per country, the run ends them invalid naming why, never sent', async () => {
	const dir = tempDir();
	const csv = writeCsv(dir, 'guarded.csv', LIST);
	const db = `${dir}/ledger.db`;
	const guarded: CampaignRun = {
		csv,
		db,
		text: 'Hi {{Name}}',
		flags: ['--default-country', 'AU', '--countries', 'au,NZ'],
	};
	const run = (...flags: string[]) =>
		runCampaign(sandbox, { ...guarded, flags: [...guarded.flags!, ...flags] });
	const dry = await run('--dry-run');
	expect(dry.code, dry.stderr).toBe(0);
	const forecast = (summaryOf(dry) as { forecast?: Record<string, unknown> }).forecast;
	expect(forecast?.refused).toEqual({
		countries: [
			{ country: 'GB', rows: 2 },
			{ country: 'US', rows: 1 },
		],
		notMobile: 1,
	});

	const first = await run();
	expect(first.code, first.stderr).toBe(0);
	const summary = summaryOf(first);
	expect(summary.rows).toMatchObject({ accepted: 2, invalid: 4 });
	expect(summary.firstErrors).toEqual([
		{
			line: 3,
			code: 'NOT_MOBILE',
			reason:
				'+61293744000 is a fixed-line number (FIXED_LINE) in AU: it cannot take a text (--allow-landlines sends to such numbers anyway)',
			to: '+61293744000',
		},
		expect.objectContaining({
			line: 5,
			code: 'COUNTRY_NOT_ALLOWED',
			reason: expect.stringContaining(
				'United Kingdom (GB), not of the allowed countries (--countries AU,NZ)',
			),
		}),
		expect.objectContaining({ line: 6, code: 'COUNTRY_NOT_ALLOWED' }),
		expect.objectContaining({ line: 7, code: 'COUNTRY_NOT_ALLOWED' }),
	]);
	const sent = (await sandboxMessages(sandbox)).map((m) => m.To).sort();
	expect(sent).toEqual(['+61491570156', '+64211234567']);

	// --allow-landlines on a new campaign sends the landline; the countries still hold.
	const again = await run('--name', 'landlines', '--allow-landlines');
	expect(again.code, again.stderr).toBe(0);
	expect(summaryOf(again).rows).toMatchObject({ accepted: 3, invalid: 3 });
});

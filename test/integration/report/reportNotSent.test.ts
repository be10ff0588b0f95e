import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCampaignReport } from '../../../worker/src/campaignReport/campaignReport';
import { reportHtml } from '../../../worker/src/campaignReport/reportHtml';
import { reportText } from '../../../worker/src/campaignReport/reportText';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { cli, tempDir } from '../worker/harness';

let db: string;

/**
 * Two sent rows, seven invalid (six bad numbers, one without consent) and one the provider
 * refused: the report says why they were not sent, with the first lines.
 */
beforeAll(async () => {
	db = join(tempDir(), 'l.db');
	const ledger = new SqliteLedger(db);
	for (const [name, timeZone] of [
		['perth', 'Australia/Perth'],
		['nowhere', undefined],
	] as const) {
		await ledger.createCampaign({
			name,
			csvPath: '/list.csv',
			propertySid: 'PR1',
			text: 'Hi',
			...(timeZone ? { timeZone } : {}),
		});
		const bad = [4, 5, 6, 7, 8, 9].map((line) => ({
			line,
			segments: 0,
			status: 'invalid' as const,
			errorCode: 'INVALID_NUMBER',
			message: `Mobile: "call me ${line}" is not a valid phone number for AU`,
		}));
		await ledger.importBatch(
			name,
			[
				...[2, 3, 11].map((line) => ({
					line,
					to: `+614915701${line}`,
					text: 'Hi',
					segments: 1,
					status: 'pending' as const,
				})),
				...bad,
				{
					line: 10,
					segments: 0,
					status: 'invalid' as const,
					errorCode: 'NO_CONSENT',
					message: 'no consent recorded for the number',
				},
			] as never,
			11,
		);
		await ledger.markSubmitting(name, [2, 3, 11], 1);
		await ledger.settle(name, 1, [
			{ line: 2, status: 'accepted', messageSid: `SM-${name}-2` },
			{ line: 3, status: 'accepted', messageSid: `SM-${name}-3` },
			{ line: 11, status: 'rejected', errorCode: 'UNROUTABLE', message: 'no route to the number' },
		]);
	}
	await ledger.close();
});

describe('the campaign report of rows not sent, costs and times', () => {
	it('lists the rows not sent by ErrorCode: counts, the first lines and a reason (text, JSON, HTML)', async () => {
		const ledger = new SqliteLedger(db, { readonly: true });
		try {
			const report = await readCampaignReport(ledger, 'perth');
			expect(report.notSentByCode).toEqual([
				{
					status: 'invalid',
					code: 'INVALID_NUMBER',
					count: 6,
					lines: [4, 5, 6, 7, 8],
					reason: 'Mobile: "call me 4" is not a valid phone number for AU',
				},
				{
					status: 'invalid',
					code: 'NO_CONSENT',
					count: 1,
					lines: [10],
					reason: 'no consent recorded for the number',
				},
				{
					status: 'rejected',
					code: 'UNROUTABLE',
					count: 1,
					lines: [11],
					reason: 'no route to the number',
				},
			]);
			const text = reportText(report);
			expect(text).toContain(
				'  not sent, by ErrorCode (`campaign status` lists every line):\n' +
					'    INVALID_NUMBER 6 invalid: lines 4, 5, 6, 7, 8, ...: Mobile: "call me 4" is not a valid phone number for AU\n' +
					'    NO_CONSENT 1 invalid: line 10: no consent recorded for the number\n' +
					'    UNROUTABLE 1 rejected: line 11: no route to the number\n',
			);
			const html = reportHtml(report);
			expect(html).toContain('<h2>Not sent, by ErrorCode</h2>');
			expect(html).toContain('data-figure="notSentByCode.0.count" data-value="6"');
		} finally {
			await ledger.close();
		}
	});

	it('shows a cost with --currency, as a bare number without; refuses a currency with spaces', async () => {
		const priced = [
			'campaign',
			'report',
			'--db',
			db,
			'--name',
			'perth',
			'--price-per-segment',
			'0.05',
		];
		const aud = await cli([...priced, '--currency', 'AUD']);
		expect(aud.code, aud.stderr).toBe(0);
		expect(aud.stdout).toContain('segments sent 2, estimated cost AUD 0.1 at AUD 0.05 per segment');
		const bare = await cli(priced);
		expect(bare.stdout).toContain('segments sent 2, estimated cost 0.1 at 0.05 per segment');
		const bad = await cli([...priced, '--currency', 'A U D']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('--currency must be a code such as AUD or a symbol such as $');
	});

	it("gives times in the campaign's zone, else this machine's, naming it", async () => {
		const own = await cli(['campaign', 'report', '--db', db, '--name', 'perth'], {
			TZ: 'Pacific/Auckland',
		});
		expect(own.stdout).toMatch(/ sent from .+ to .+ \(Australia\/Perth\)\n/);
		const local = await cli(['campaign', 'report', '--db', db, '--name', 'nowhere'], {
			TZ: 'Pacific/Auckland',
		});
		expect(local.stdout).toMatch(/ sent from .+ to .+ \(Pacific\/Auckland\)\n/);
	});
});

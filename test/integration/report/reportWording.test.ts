import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { cli, tempDir } from '../worker/harness';

let db: string;
let dir: string;

/** A campaign with one invalid row beside the sent ones: the report's reader is told where its reason is. */
beforeAll(async () => {
	dir = tempDir();
	db = join(dir, 'l.db');
	const ledger = new SqliteLedger(db);
	await ledger.createCampaign({
		name: 'words',
		csvPath: '/list.csv',
		propertySid: 'PR1',
		text: 'Hi',
	});
	await ledger.importBatch(
		'words',
		[
			...[2, 3].map((line) => ({
				line,
				to: `+6149157015${line}`,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			{
				line: 4,
				segments: 0,
				status: 'invalid' as const,
				errorCode: 'INVALID_NUMBER',
				message: 'Mobile: "call me" is not a valid phone number for AU',
			},
		] as never,
		4,
	);
	await ledger.markSubmitting('words', [2, 3], 1);
	await ledger.settle(
		'words',
		1,
		[2, 3].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
	);
	await ledger.close();
});

describe('the campaign report says each thing once, and points only at what exists', () => {
	it('the HTML page has one "Funnel" and tells where the invalid rows\' reasons are', async () => {
		const html = join(dir, 'r.html');
		const run = await cli(['campaign', 'report', '--db', db, '--name', 'words', '--html', html]);
		expect(run.code, run.stderr).toBe(0);
		const page = readFileSync(html, 'utf8');
		expect(page.match(/Funnel/g)).toHaveLength(1);
		expect(page).not.toContain('see the first errors');
		expect(page).toContain('cloudtel campaign status --name words');
	});

	it('the text and JSON say the same of the invalid rows', async () => {
		const json = await cli(['campaign', 'report', '--db', db, '--name', 'words', '--json']);
		expect(json.code, json.stderr).toBe(0);
		const invalid = (
			JSON.parse(json.stdout) as { rowStates: { state: string; count: number; meaning: string }[] }
		).rowStates.find((s) => s.state === 'invalid');
		expect(invalid).toMatchObject({ count: 1 });
		expect(invalid?.meaning).toContain(
			'`cloudtel campaign status --name words` lists them with their lines and reasons',
		);
	});
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, writeCsv } from './harness';

/**
 * --out is opened in spreadsheets: a cell beginning with =, +, -, @, a tab or a carriage
 * return would run as a formula there (OWASP's CSV injection), so it gets a ' first; a cell
 * wholly a number (an E.164 number) stays as it is.
 */
describe('--out in a spreadsheet', () => {
	it('neutralises cells that would run as formulas, and leaves numbers as they are', async () => {
		const dir = tempDir();
		const csv = writeCsv(
			dir,
			'people.csv',
			'Name,Phone\n"=HYPERLINK(""http://evil.example"",""x"")",+61491570101\n@SUM(A1),+61491570102\n-2+3+cmd|calc,+61491570103\n-5,+61491570104\n',
		);
		const out = join(dir, 'out.csv');
		const run = await cli([
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'{{Name}}',
			'--db',
			join(dir, 'l.db'),
			'--dry-run',
			'--out',
			out,
		]);
		expect(run.code, run.stderr).toBe(0);
		const lines = readFileSync(out, 'utf8').trim().split('\n');
		expect(lines[1]).toBe(`2,+61491570101,valid,,,,"'=HYPERLINK(""http://evil.example"",""x"")",1`);
		expect(lines[2]).toBe(`3,+61491570102,valid,,,,'@SUM(A1),1`);
		expect(lines[3]).toBe(`4,+61491570103,valid,,,,'-2+3+cmd|calc,1`);
		// Wholly a number: a spreadsheet takes it as one, nothing to run.
		expect(lines[4]).toBe('5,+61491570104,valid,,,,-5,1');
	});
});

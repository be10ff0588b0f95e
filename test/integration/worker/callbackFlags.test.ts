import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, numbersCsv, tempDir, writeCsv } from './harness';

const env = {
	CLOUDTEL_BASE_URL: 'http://127.0.0.1:9',
	CLOUDTEL_ACCOUNT_SID: 'AC1',
	CLOUDTEL_AUTH_TOKEN: 'token',
};

describe('campaign run: --receipt-url and --reply-url', () => {
	it('refuses a receipt URL that is not an absolute http(s) URL, naming the flag, before anything is stored', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(3));
		const result = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--property',
				'PR1',
				'--text',
				'Hi',
				'--db',
				join(dir, 'l.db'),
				'--receipt-url',
				'worker:8080/receipts',
			],
			env,
		);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--receipt-url must be an absolute http or https URL');
		expect(result.stderr).toContain('"worker:8080/receipts"');
	});

	it('refuses --reply-url for a campaign with a fixed --from, as the provider calls replies back only for leased numbers', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'list.csv', numbersCsv(3));
		const result = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--property',
				'PR1',
				'--text',
				'Hi',
				'--from',
				'CloudTel',
				'--db',
				join(dir, 'l.db'),
				'--reply-url',
				'http://127.0.0.1:8080/callbacks/s/replies',
			],
			env,
		);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--reply-url needs a leased sender');
	});
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { cli, tempDir } from './harness';

let config: string;
let db: string;
/** No provider setting anywhere: a link is the report token's business only. */
const ENV = {
	CLOUDTEL_ACCOUNT_SID: '',
	CLOUDTEL_AUTH_TOKEN: '',
	CLOUDTEL_CALLBACK_SECRET: '',
	CLOUDTEL_BASE_URL: '',
	CLOUDTEL_DB: '',
};

beforeAll(async () => {
	const dir = tempDir();
	db = join(dir, 'worker.db');
	const ledger = new SqliteLedger(db);
	for (const name of ['spring', 'weekly-offer-20261127T220900Z', 'weekly-offer-20261204T220900Z'])
		await ledger.createCampaign({ name, csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.close();
	config = join(dir, 'worker.config.yaml');
	writeFileSync(
		config,
		[
			`db: ${db}`,
			'server:',
			'  publicUrl: https://worker.example.com',
			'  reportToken: report-link-token-0123',
			'',
		].join('\n'),
	);
});

describe('cloudtel worker --report-link', () => {
	it('signs a link with the report token alone: no AuthToken, no callback secret', async () => {
		const r = await cli(
			['worker', '--config', config, '--report-link', '--campaign', 'spring'],
			ENV,
		);
		expect(r.stderr).toBe('');
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(
			/^https:\/\/worker\.example\.com\/campaigns\/spring\?expires=\d+&signature=[\w-]+\n$/,
		);
		const all = await cli(['worker', '--config', config, '--report-link'], ENV);
		expect(all.code, all.stderr).toBe(0);
		expect(all.stdout).toMatch(/^https:\/\/worker\.example\.com\/campaigns\?expires=/);
	});

	it('refuses a campaign the ledger does not have, naming it', async () => {
		const r = await cli(
			['worker', '--config', config, '--report-link', '--campaign', 'sprung'],
			ENV,
		);
		expect(r.code).toBe(1);
		expect(r.stdout).toBe('');
		expect(r.stderr).toContain(
			`--campaign: no campaign named sprung in the worker's ledger (${db}), so no report to link to`,
		);
	});

	it("takes a config campaign's name for its latest run, and says so", async () => {
		const r = await cli(
			['worker', '--config', config, '--report-link', '--campaign', 'weekly-offer'],
			ENV,
		);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/\/campaigns\/weekly-offer-20261204T220900Z\?expires=/);
		expect(r.stderr).toContain(
			'weekly-offer has 2 runs: the link is to the latest, weekly-offer-20261204T220900Z',
		);
	});
});

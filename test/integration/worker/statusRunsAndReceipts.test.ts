import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { cli, numbersCsv, sandboxForTests, tempDir, writeCsv } from './harness';

let db: string;
let env: Record<string, string>;
let property: string;
sandboxForTests((started) => {
	env = started.env;
	property = started.sandbox.demo.PropertySid;
});

/** Three accepted rows, with or without a receipt among them. */
async function sent(ledger: SqliteLedger, name: string, receipt: boolean) {
	await ledger.createCampaign({
		name,
		csvPath: '/list.csv',
		propertySid: 'PR1',
		text: 'Hi',
		...(receipt ? { receipts: true } : {}),
	});
	await ledger.importBatch(
		name,
		[2, 3, 4].map((line) => ({
			line,
			to: `+6149157015${line}`,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		4,
	);
	await ledger.markSubmitting(name, [2, 3, 4], 1);
	await ledger.settle(
		name,
		1,
		[2, 3, 4].map((line) => ({
			line,
			status: 'accepted' as const,
			messageSid: `SM-${name}-${line}`,
		})),
	);
	if (receipt)
		await ledger.recordDelivery({
			messageSid: `SM-${name}-2`,
			campaign: name,
			line: 2,
			status: 'Delivered',
			at: Math.floor(Date.now() / 1000),
		});
}

beforeAll(async () => {
	db = join(tempDir(), 'l.db');
	const ledger = new SqliteLedger(db);
	// Two cron runs of the config campaign weekly-offer, the later one made first; and a plain CLI campaign.
	await sent(ledger, 'weekly-offer-20261204T220000Z', true);
	await sent(ledger, 'weekly-offer-20261127T220000Z', true);
	await sent(ledger, 'weekly-offer-extra', true);
	await sent(ledger, 'spring', false);
	await ledger.close();
});

describe('campaign status', () => {
	it("finds a config campaign's cron runs by the campaign's name: lists them latest first and shows the latest", async () => {
		const r = await cli(['campaign', 'status', '--db', db, '--name', 'weekly-offer']);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(
			/^weekly-offer has 2 runs, latest first: weekly-offer-20261204T220000Z, weekly-offer-20261127T220000Z; showing the latest, weekly-offer-20261204T220000Z\nCampaign weekly-offer-20261204T220000Z: /,
		);
		const json = await cli(['campaign', 'status', '--db', db, '--name', 'weekly-offer', '--json']);
		expect(JSON.parse(json.stdout)).toMatchObject({
			name: 'weekly-offer-20261204T220000Z',
			runs: ['weekly-offer-20261204T220000Z', 'weekly-offer-20261127T220000Z'],
		});
		// A run by its own name, as before.
		const one = await cli([
			'campaign',
			'status',
			'--db',
			db,
			'--name',
			'weekly-offer-20261127T220000Z',
		]);
		expect(one.stdout).toMatch(/^Campaign weekly-offer-20261127T220000Z: /);
	});

	it('campaign report takes the config name for the latest run, and says which; none at all is exit 1', async () => {
		const r = await cli(['campaign', 'report', '--db', db, '--name', 'weekly-offer']);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^Campaign weekly-offer-20261204T220000Z: /);
		expect(r.stderr).toBe(
			'weekly-offer has 2 runs, latest first: weekly-offer-20261204T220000Z, weekly-offer-20261127T220000Z; this is the report of the latest, weekly-offer-20261204T220000Z\n',
		);
		const none = await cli(['campaign', 'report', '--db', db, '--name', 'autumn']);
		expect(none.code).toBe(1);
		expect(none.stderr).toContain('no campaign named autumn');
	});

	it('pause takes the config name for the latest run; delete wants the run named', async () => {
		const pause = await cli(['campaign', 'pause', '--db', db, '--name', 'weekly-offer']);
		expect(pause.stdout).toBe('paused campaign weekly-offer-20261204T220000Z\n');
		await cli(['campaign', 'resume', '--db', db, '--name', 'weekly-offer']);
		const del = await cli(['campaign', 'delete', '--db', db, '--name', 'weekly-offer']);
		expect(del.code).toBe(1);
		expect(del.stderr).toContain('no campaign named weekly-offer');
		expect(del.stderr).toContain(
			'its runs: weekly-offer-20261204T220000Z, weekly-offer-20261127T220000Z',
		);
	});

	it('awaits receipts a run asked for with --receipt-url, none having come yet', async () => {
		const dir = tempDir();
		const csv = writeCsv(dir, 'asked.csv', numbersCsv(3));
		const run = await cli(
			[
				'campaign',
				'run',
				'--csv',
				csv,
				'--property',
				property,
				'--text',
				'Hi',
				'--db',
				db,
				'--name',
				'asked',
				'--receipt-url',
				'http://127.0.0.1:9/callbacks/never/receipts',
				'--json',
			],
			env,
		);
		expect(run.code, run.stderr).toBe(0);
		const status = await cli(['campaign', 'status', '--db', db, '--name', 'asked']);
		expect(status.stdout).toContain('receipts: delivered 0, failed 0, awaiting receipt 3');
	});

	it('shows "awaiting receipt" only where receipts were asked for, and otherwise says how to get them', async () => {
		const withReceipts = await cli([
			'campaign',
			'status',
			'--db',
			db,
			'--name',
			'weekly-offer-20261127T220000Z',
		]);
		expect(withReceipts.stdout).toContain('receipts: delivered 1, failed 0, awaiting receipt 2');
		const without = await cli(['campaign', 'status', '--db', db, '--name', 'spring']);
		expect(without.code, without.stderr).toBe(0);
		expect(without.stdout).not.toContain('awaiting receipt');
		expect(without.stdout).toContain(
			'receipts: not asked for; to get them, send with --receipt-url pointing at a running `cloudtel worker` on this ledger, or run the campaign through the worker',
		);
	});
});

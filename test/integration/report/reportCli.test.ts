import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/storage/sqlite/sqliteLedger';
import { cli, tempDir } from '../worker/harness';

let db: string;
let dir: string;

beforeAll(async () => {
	dir = tempDir();
	db = join(dir, 'l.db');
	const ledger = new SqliteLedger(db);
	await ledger.createCampaign({
		name: 'small',
		csvPath: '/list.csv',
		propertySid: 'PR1',
		text: 'Hi',
	});
	await ledger.importBatch(
		'small',
		[2, 3, 4].map((line) => ({
			line,
			to: `+6149157015${line}`,
			text: 'Hi',
			segments: 2,
			status: 'pending' as const,
		})),
		4,
	);
	await ledger.markSubmitting('small', [2, 3, 4], 1);
	await ledger.settle(
		'small',
		1,
		[2, 3, 4].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
	);
	await ledger.recordDelivery({
		messageSid: 'SM-2',
		campaign: 'small',
		line: 2,
		status: 'Failed',
		errorCode: 'UNDELIVERABLE',
		at: Math.floor(Date.now() / 1000),
	});
	await ledger.close();
});

describe('cloudtel campaign report on the command line', () => {
	it('prints the figures as text without --json or --html', async () => {
		const run = await cli([
			'campaign',
			'report',
			'--db',
			db,
			'--name',
			'small',
			'--price-per-segment',
			'0.1',
		]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain(
			'funnel: rows 3, valid 3, sent 3, delivered 0, failed 1, replied 0, opted out 0',
		);
		expect(run.stdout).toContain('awaiting receipt 2');
		expect(run.stdout).toContain('failures by ErrorCode: UNDELIVERABLE 1');
		expect(run.stdout).toContain('failures by country: AU 1');
		expect(run.stdout).toContain('segments sent 6, estimated cost 0.6 at 0.1 per segment');
	});

	it('reads a ledger its user may not write to, and writes nothing to it', async () => {
		const roDir = tempDir();
		const roDb = join(roDir, 'l.db');
		const ledger = new SqliteLedger(roDb);
		await ledger.createCampaign({
			name: 'ro',
			csvPath: '/list.csv',
			propertySid: 'PR1',
			text: 'Hi',
		});
		await ledger.importBatch(
			'ro',
			[{ line: 2, to: '+61491570152', text: 'Hi', segments: 1, status: 'pending' }],
			2,
		);
		await ledger.close();
		chmodSync(roDb, 0o444);
		chmodSync(roDir, 0o555);
		// root writes whatever the mode says: read as nobody then.
		const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
		try {
			const run = await cli(
				['campaign', 'report', '--db', roDb, '--name', 'ro', '--json'],
				{},
				asUser,
			);
			expect(run.code, run.stderr).toBe(0);
			expect(JSON.parse(run.stdout)).toMatchObject({
				campaign: 'ro',
				funnel: { rows: 1, valid: 1, sent: 0 },
			});
		} finally {
			chmodSync(roDir, 0o755);
		}
		expect(existsSync(`${roDb}-wal`)).toBe(false);
	});

	it('draws a campaign whose receipts span ten years in at most 60 buckets', async () => {
		const longDb = join(tempDir(), 'l.db');
		const ledger = new SqliteLedger(longDb);
		await ledger.createCampaign({
			name: 'decade',
			csvPath: '/list.csv',
			propertySid: 'PR1',
			text: 'Hi',
		});
		const lines = Array.from({ length: 121 }, (_, i) => i + 2);
		await ledger.importBatch(
			'decade',
			lines.map((line) => ({
				line,
				to: `+61491${String(line).padStart(6, '0')}`,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			122,
		);
		await ledger.markSubmitting('decade', lines, 1);
		await ledger.settle(
			'decade',
			1,
			lines.map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-d${line}` })),
		);
		// A receipt a month, for ten years back, the oldest a second before a week's boundary.
		const now = Math.floor(Date.now() / 1000);
		const oldest = Math.floor((now - 10 * 365 * 86_400) / 604_800) * 604_800 - 1;
		for (const [i, line] of lines.entries())
			await ledger.recordDelivery({
				messageSid: `SM-d${line}`,
				campaign: 'decade',
				line,
				status: 'Delivered',
				at: oldest + Math.round(((now - oldest) * i) / 120),
			});
		await ledger.close();
		const run = await cli(['campaign', 'report', '--db', longDb, '--name', 'decade', '--json']);
		expect(run.code, run.stderr).toBe(0);
		const { timeline } = JSON.parse(run.stdout) as {
			timeline: {
				bucketSeconds: number;
				sends: { at: string }[];
				deliveries: { at: string; delivered: number }[];
			};
		};
		const starts = [...timeline.sends, ...timeline.deliveries].map((b) => Date.parse(b.at) / 1000);
		expect(timeline.deliveries.reduce((n, b) => n + b.delivered, 0)).toBe(121);
		// From the first bucket to the last, counting the empty ones between.
		expect(
			(Math.max(...starts) - Math.min(...starts)) / timeline.bucketSeconds + 1,
		).toBeLessThanOrEqual(60);
		expect(timeline.deliveries.length).toBeLessThanOrEqual(60);
	});

	it('names the flag or the campaign that is wrong, and writes no file', async () => {
		const html = join(dir, 'r.html');
		const price = await cli([
			'campaign',
			'report',
			'--db',
			db,
			'--name',
			'small',
			'--html',
			html,
			'--price-per-segment',
			'ten cents',
		]);
		expect(price.code).toBe(2);
		expect(price.stderr).toContain(
			'--price-per-segment must be a number from 0 to 1,000,000, such as 0.045 (got "ten cents")',
		);
		const noName = await cli(['campaign', 'report', '--db', db]);
		expect(noName.code).toBe(2);
		expect(noName.stderr).toContain('campaign report needs --name');
		const unknown = await cli(['campaign', 'report', '--db', db, '--name', 'nope', '--html', html]);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain(`no campaign named nope in ${db}`);
		const noDb = await cli([
			'campaign',
			'report',
			'--db',
			join(dir, 'missing.db'),
			'--name',
			'small',
		]);
		expect(noDb.code).toBe(1);
		expect(noDb.stderr).toContain('no ledger at');
		const badDir = await cli([
			'campaign',
			'report',
			'--db',
			db,
			'--name',
			'small',
			'--html',
			join(dir, 'no-such-dir', 'r.html'),
		]);
		expect(badDir.code).toBe(1);
		expect(badDir.stderr).toContain('cannot write --html');
		expect(existsSync(html)).toBe(false);
	});
});

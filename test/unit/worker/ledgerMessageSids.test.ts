import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteLedger } from '../../../worker/src/ledger/sqliteLedger';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A ledger with one campaign whose lines 2-4 were sent, 2 and 4 accepted, 3 rejected. */
async function sentLedger(): Promise<{ path: string; ledger: SqliteLedger }> {
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-sids-'));
	dirs.push(dir);
	const path = join(dir, 'ledger.db');
	const ledger = new SqliteLedger(path);
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	const rows = [2, 3, 4].map((line) => ({ line, to: `+6149157015${line}`, text: 'Hi', segments: 1, status: 'pending' as const }));
	await ledger.importBatch('c1', rows, 4);
	await ledger.markSubmitting('c1', [2, 3, 4], 1);
	await ledger.settle('c1', 1, [
		{ line: 2, status: 'accepted', messageSid: 'SM-two' },
		{ line: 3, status: 'rejected', errorCode: 'INVALID_PHONENUMBER_FORMAT', message: 'bad' },
		{ line: 4, status: 'accepted', messageSid: 'SM-four' },
	]);
	return { path, ledger };
}

const receipt = (messageSid: string) => ({ messageSid, status: 'Delivered' as const, at: 1_700_000_000 });

describe('ledger: rows found by MessageSid', () => {
	it('finds a row whose answer was just stored, and again once its MessageSid is copied into the index', async () => {
		const { path, ledger } = await sentLedger();
		expect(await ledger.recordDelivery(receipt('SM-four'))).toEqual({ campaign: 'c1', line: 4 });
		expect(await ledger.recordDelivery(receipt('SM-none'))).toBeUndefined();
		// Closing copies the backlog into message_sids.
		await ledger.close();
		const db = new Database(path);
		expect(db.prepare('SELECT COUNT(*) FROM sid_backlog').pluck().get()).toBe(0);
		expect(db.prepare('SELECT message_sid, line FROM message_sids ORDER BY line').all()).toEqual([
			{ message_sid: 'SM-two', line: 2 },
			{ message_sid: 'SM-four', line: 4 },
		]);
		db.close();
		const again = new SqliteLedger(path);
		expect(await again.recordDelivery(receipt('SM-two'))).toEqual({ campaign: 'c1', line: 2 });
		expect((await again.delivery('c1', 2))?.status).toBe('Delivered');
		await again.close();
	});

	it('moves a schema-1 ledger, with its MessageSid index on recipients, to message_sids', async () => {
		const { path, ledger } = await sentLedger();
		await ledger.close();
		// Schema 1 as it was: no message_sids, no backlog, an index on recipients.message_sid.
		const db = new Database(path);
		db.exec(`DROP TABLE message_sids; DROP TABLE sid_backlog; CREATE INDEX recipients_by_message_sid ON recipients (message_sid); UPDATE meta SET value = '1' WHERE key = 'schema';`);
		db.close();
		const migrated = new SqliteLedger(path);
		expect(await migrated.recordDelivery(receipt('SM-two'))).toEqual({ campaign: 'c1', line: 2 });
		expect(await migrated.recordDelivery(receipt('SM-four'))).toEqual({ campaign: 'c1', line: 4 });
		await migrated.close();
		const check = new Database(path);
		expect(check.prepare(`SELECT value FROM meta WHERE key = 'schema'`).pluck().get()).toBe('3');
		expect(check.prepare(`SELECT name FROM sqlite_master WHERE name = 'recipients_by_message_sid'`).get()).toBeUndefined();
		check.close();
	});
});

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { storeBackends } from '../../../support/storeBackends';
import { tempDir } from '../../../support/tempDir';

const backends = storeBackends();

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A ledger with one campaign whose lines 2-4 were sent, 2 and 4 accepted, 3 rejected. */
async function sentLedger(): Promise<{ path: string; ledger: SqliteLedger }> {
	const dir = tempDir('cloudtel-sids-');
	dirs.push(dir);
	const path = join(dir, 'ledger.db');
	const ledger = new SqliteLedger(path);
	await sendThree(ledger);
	return { path, ledger };
}

async function sendThree(ledger: Ledger): Promise<void> {
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	const rows = [2, 3, 4].map((line) => ({
		line,
		to: `+6149157015${line}`,
		text: 'Hi',
		segments: 1,
		status: 'pending' as const,
	}));
	await ledger.importBatch('c1', rows, 4);
	await ledger.markSubmitting('c1', [2, 3, 4], 1);
	await ledger.settle('c1', 1, [
		{ line: 2, status: 'accepted', messageSid: 'SM-two' },
		{ line: 3, status: 'rejected', errorCode: 'INVALID_PHONENUMBER_FORMAT', message: 'bad' },
		{ line: 4, status: 'accepted', messageSid: 'SM-four' },
	]);
}

const receipt = (messageSid: string) => ({
	messageSid,
	status: 'Delivered' as const,
	at: 1_700_000_000,
});

async function rowsOf(ledger: Ledger) {
	const out: { line: number; status: string; messageSid?: string }[] = [];
	for await (const r of ledger.rows('c1'))
		out.push({ line: r.line, status: r.status, messageSid: r.messageSid });
	return out;
}

describe.each(backends)('ledger ($name): MessageSids', (backend) => {
	it('lists each row with its MessageSid, for a chunk answered in part', async () => {
		const ledger = await openLedger(backend.location());
		await sendThree(ledger);
		expect(await rowsOf(ledger)).toEqual([
			{ line: 2, status: 'accepted', messageSid: 'SM-two' },
			{ line: 3, status: 'rejected', messageSid: undefined },
			{ line: 4, status: 'accepted', messageSid: 'SM-four' },
		]);
		await ledger.close();
	});

	it('lists thousands of rows of wholly accepted chunks with their own MessageSids, across pages and gaps', async () => {
		const ledger = await openLedger(backend.location());
		await ledger.createCampaign({
			name: 'c1',
			csvPath: '/list.csv',
			propertySid: 'PR1',
			text: 'Hi',
		});
		// Every seventh line is invalid: chunks cover ranges with rows that are not theirs.
		const lines = Array.from({ length: 7000 }, (_, i) => i + 2);
		await ledger.importBatch(
			'c1',
			lines.map((line) => ({
				line,
				to: `+61491${String(line).padStart(6, '0')}`,
				text: 'Hi',
				segments: 1,
				status: line % 7 === 0 ? ('invalid' as const) : ('pending' as const),
			})),
			7001,
		);
		let chunk = 0;
		for (let after = 0; ; ) {
			const rows = await ledger.peekPending('c1', 1000, after);
			if (rows.length === 0) break;
			await ledger.markSubmitting(
				'c1',
				rows.map((r) => r.line),
				++chunk,
			);
			await ledger.settle(
				'c1',
				chunk,
				rows.map((r) => ({ line: r.line, status: 'accepted', messageSid: `SM${r.line}` })),
			);
			after = rows[rows.length - 1].line;
		}
		const listed = await rowsOf(ledger);
		expect(listed).toHaveLength(7000);
		for (const r of listed)
			expect(r).toEqual(
				r.line % 7 === 0
					? { line: r.line, status: 'invalid', messageSid: undefined }
					: { line: r.line, status: 'accepted', messageSid: `SM${r.line}` },
			);
		expect((await ledger.counts('c1')).rows).toMatchObject({
			accepted: 6000,
			invalid: 1000,
			pending: 0,
			submitting: 0,
		});
		await ledger.close();
	});

	it("finds a receipt's row by its ExternalId, else by its MessageSid, and keeps the latest receipt", async () => {
		const ledger = await openLedger(backend.location());
		await sendThree(ledger);
		expect(await ledger.recordDelivery({ ...receipt('SM-four'), campaign: 'c1', line: 4 })).toEqual(
			{ campaign: 'c1', line: 4, resolved: false },
		);
		expect(await ledger.recordDelivery(receipt('SM-two'))).toEqual({
			campaign: 'c1',
			line: 2,
			resolved: false,
		});
		expect(
			await ledger.recordDelivery({
				...receipt('SM-two'),
				status: 'Failed',
				errorCode: 'UNDELIVERABLE',
				at: 1_700_000_100,
			}),
		).toEqual({ campaign: 'c1', line: 2, resolved: false });
		expect(await ledger.recordDelivery(receipt('SM-none'))).toBeUndefined();
		expect(await ledger.delivery('c1', 2)).toEqual({
			messageSid: 'SM-two',
			campaign: 'c1',
			line: 2,
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at: 1_700_000_100,
		});
		expect((await ledger.delivery('c1', 4))?.status).toBe('Delivered');
		expect(await ledger.delivery('c1', 3)).toBeUndefined();
		await ledger.close();
	});
});

describe('ledger (sqlite): rows found by MessageSid', () => {
	it('builds the MessageSid index from the answers when a receipt first needs it, and again for later answers', async () => {
		const { path, ledger } = await sentLedger();
		const db = new Database(path);
		expect(db.prepare('SELECT COUNT(*) FROM message_sids').pluck().get()).toBe(0);
		expect(await ledger.recordDelivery(receipt('SM-four'))).toEqual({
			campaign: 'c1',
			line: 4,
			resolved: false,
		});
		expect(db.prepare('SELECT message_sid, line FROM message_sids ORDER BY line').all()).toEqual([
			{ message_sid: 'SM-two', line: 2 },
			{ message_sid: 'SM-four', line: 4 },
		]);
		expect(await ledger.recordDelivery(receipt('SM-none'))).toBeUndefined();
		await ledger.importBatch(
			'c1',
			[{ line: 5, to: '+61491570155', text: 'Hi', segments: 1, status: 'pending' }],
			5,
		);
		await ledger.markSubmitting('c1', [5], 2);
		await ledger.settle('c1', 2, [{ line: 5, status: 'accepted', messageSid: 'SM-five' }]);
		expect(await ledger.recordDelivery(receipt('SM-five'))).toEqual({
			campaign: 'c1',
			line: 5,
			resolved: false,
		});
		await ledger.close();
		db.close();
		const again = new SqliteLedger(path);
		expect(await again.recordDelivery(receipt('SM-two'))).toEqual({
			campaign: 'c1',
			line: 2,
			resolved: false,
		});
		expect((await again.delivery('c1', 2))?.status).toBe('Delivered');
		await again.close();
	});

	it('finds by MessageSid the rows of a campaign made after the last one was deleted, though SQLite gives its answers the same ids again', async () => {
		const { ledger } = await sentLedger();
		// A receipt with no ExternalId: the index is built, through the deleted campaign's answers.
		expect(await ledger.recordDelivery(receipt('SM-four'))).toMatchObject({
			campaign: 'c1',
			line: 4,
		});
		await ledger.deleteCampaign('c1');
		await sendThree(ledger);
		expect(await ledger.recordDelivery({ ...receipt('SM-four'), status: 'Failed' })).toMatchObject({
			campaign: 'c1',
			line: 4,
		});
		expect(await ledger.delivery('c1', 4)).toMatchObject({
			messageSid: 'SM-four',
			status: 'Failed',
		});
		await ledger.close();
	});

	it('indexes a backlog of many answers, page by page, before looking a MessageSid up', async () => {
		const { ledger } = await sentLedger();
		const lines = Array.from({ length: 250 }, (_, i) => i + 10);
		await ledger.importBatch(
			'c1',
			lines.map((line) => ({
				line,
				to: `+61491${String(line).padStart(6, '0')}`,
				text: 'Hi',
				segments: 1,
				status: 'pending' as const,
			})),
			259,
		);
		for (const line of lines) {
			await ledger.markSubmitting('c1', [line], line);
			await ledger.settle('c1', line, [{ line, status: 'accepted', messageSid: `SM-${line}` }]);
		}
		expect(await ledger.recordDelivery(receipt('SM-259'))).toEqual({
			campaign: 'c1',
			line: 259,
			resolved: false,
		});
		expect(await ledger.recordDelivery(receipt('SM-10'))).toEqual({
			campaign: 'c1',
			line: 10,
			resolved: false,
		});
		expect(await ledger.recordDelivery(receipt('SM-two'))).toEqual({
			campaign: 'c1',
			line: 2,
			resolved: false,
		});
		await ledger.close();
	});
});

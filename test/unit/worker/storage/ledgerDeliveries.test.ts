import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../../../worker/src/storage/ledger';
import { SqliteLedger } from '../../../../worker/src/storage/sqlite/sqliteLedger';
import type { DbLocation } from '../../../../worker/src/storage/dbLocation';
import { openLedger } from '../../../../worker/src/storage/openStores';
import { sql } from '../../../support/postgres/database';
import { storeBackends, type StoreBackend } from '../../../support/storeBackends';
import { tempDir } from '../../../support/tempDir';

const backends = storeBackends();

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerPath(): string {
	const dir = tempDir('cloudtel-deliveries-');
	dirs.push(dir);
	return join(dir, 'ledger.db');
}

/** Lines 2-7 imported; 2-4 sent and accepted in one chunk; 5-7 in a chunk a crash left submitting. */
async function crashedLedgerAt(where: DbLocation | string = ledgerPath()): Promise<Ledger> {
	const ledger = typeof where === 'string' ? new SqliteLedger(where) : await openLedger(where);
	await ledger.createCampaign({ name: 'c1', csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await ledger.importBatch(
		'c1',
		[2, 3, 4, 5, 6, 7].map((line) => ({
			line,
			to: `+6149157015${line}`,
			text: 'Hi',
			segments: 2,
			status: 'pending' as const,
		})),
		7,
	);
	await ledger.markSubmitting('c1', [2, 3, 4], 1);
	await ledger.settle(
		'c1',
		1,
		[2, 3, 4].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
	);
	await ledger.markSubmitting('c1', [5, 6, 7], 2);
	return ledger;
}

async function statuses(ledger: Ledger): Promise<Record<number, [string, string | undefined]>> {
	const out: Record<number, [string, string | undefined]> = {};
	for await (const r of ledger.rows('c1')) out[r.line] = [r.status, r.messageSid];
	return out;
}

/** A statement on the backend's own tables, as a person or an older worker would run it. */
async function raw(
	backend: StoreBackend,
	sqlite: string,
	postgres: string,
	values: unknown[] = [],
): Promise<void> {
	const where = backend.location();
	if (where.kind === 'sqlite') {
		const db = new Database(where.path);
		db.prepare(sqlite).run(...values);
		db.close();
	} else await sql(where.url, postgres, values);
}

describe.each(backends)('ledger ($name): receipts settle rows', (backend) => {
	const crashedLedger = () => crashedLedgerAt(backend.location());

	it('counts delivered, failed by ErrorCode and accepted rows still awaiting a receipt', async () => {
		const ledger = await crashedLedger();
		await ledger.recordDelivery({
			messageSid: 'SM-2',
			campaign: 'c1',
			line: 2,
			status: 'Delivered',
			at: 1_700_000_000,
		});
		await ledger.recordDelivery({
			messageSid: 'SM-3',
			campaign: 'c1',
			line: 3,
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at: 1_700_000_001,
		});
		// The same receipt again changes nothing.
		await ledger.recordDelivery({
			messageSid: 'SM-3',
			campaign: 'c1',
			line: 3,
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at: 1_700_000_001,
		});
		expect(await ledger.deliveryCounts('c1')).toEqual({
			delivered: 1,
			failed: 1,
			failedByCode: { UNDELIVERABLE: 1 },
			awaitingReceipt: 1,
			replied: 0,
			optedOut: 0,
		});
		expect(await ledger.delivery('c1', 3)).toMatchObject({
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at: 1_700_000_001,
		});
		await ledger.close();
	});

	it('a receipt for a row of a chunk left submitting makes the resume mark it accepted, with its MessageSid, not uncertain', async () => {
		const ledger = await crashedLedger();
		const stored = await ledger.recordDelivery({
			messageSid: 'SM-six',
			campaign: 'c1',
			line: 6,
			status: 'Delivered',
			at: 1_700_000_000,
		});
		// The row is still on its way: only the resume may decide it.
		expect(stored).toEqual({ campaign: 'c1', line: 6, resolved: false });
		expect(await ledger.recoverSubmitting('c1')).toBe(2);
		const rows = await statuses(ledger);
		expect(rows[5]).toEqual(['uncertain', undefined]);
		expect(rows[6]).toEqual(['accepted', 'SM-six']);
		expect(rows[7]).toEqual(['uncertain', undefined]);
		expect((await ledger.counts('c1')).rows).toMatchObject({ accepted: 4, uncertain: 2 });
		await ledger.close();
	});

	it('a receipt that comes after the resume turns an uncertain row accepted, then delivered', async () => {
		const ledger = await crashedLedger();
		await ledger.recoverSubmitting('c1');
		expect(
			await ledger.recordDelivery({
				messageSid: 'SM-five',
				campaign: 'c1',
				line: 5,
				status: 'Failed',
				errorCode: 'UNKNOWN_SUBSCRIBER',
				at: 1_700_000_000,
			}),
		).toEqual({
			campaign: 'c1',
			line: 5,
			resolved: true,
		});
		expect((await statuses(ledger))[5]).toEqual(['accepted', 'SM-five']);
		expect(await ledger.deliveryCounts('c1')).toMatchObject({
			failed: 1,
			failedByCode: { UNKNOWN_SUBSCRIBER: 1 },
			awaitingReceipt: 3,
		});
		await ledger.close();
	});

	it('--resend-uncertain puts back only the uncertain rows no receipt has shown were sent', async () => {
		const ledger = await crashedLedger();
		await ledger.recoverSubmitting('c1');
		// Stored through another connection, as the worker daemon would.
		const daemon = await openLedger(backend.location());
		await daemon.recordDelivery({
			messageSid: 'SM-seven',
			campaign: 'c1',
			line: 7,
			status: 'Delivered',
			at: 1_700_000_000,
		});
		await daemon.close();
		// A receipt stored by an older worker, which left its row uncertain.
		const insert = `INSERT INTO deliveries (campaign, line, message_sid, status, at) VALUES ('c1', 5, 'SM-five', 'Delivered', 1700000000)`;
		await raw(backend, insert, insert);
		expect(await ledger.requeueUncertain('c1')).toBe(1);
		const rows = await statuses(ledger);
		expect(rows[5]).toEqual(['accepted', 'SM-five']);
		expect(rows[6]).toEqual(['pending', undefined]);
		expect(rows[7]).toEqual(['accepted', 'SM-seven']);
		expect((await ledger.peekPending('c1', 10)).map((r) => r.line)).toEqual([6]);
		await ledger.close();
	});

	it('counts a row that replied once, however many replies, and the opt-outs among them; replies to no row of ours are not stored', async () => {
		const ledger = await crashedLedger();
		expect(
			await ledger.recordReply({
				campaign: 'c1',
				line: 2,
				messageSid: 'IN-1',
				at: 1,
				optOut: false,
			}),
		).toBe(true);
		expect(
			await ledger.recordReply({
				campaign: 'c1',
				line: 2,
				messageSid: 'IN-2',
				at: 2,
				optOut: false,
			}),
		).toBe(true);
		expect(
			await ledger.recordReply({
				campaign: 'c1',
				line: 2,
				messageSid: 'IN-2',
				at: 2,
				optOut: false,
			}),
		).toBe(false);
		expect(
			await ledger.recordReply({
				campaign: 'c1',
				line: 3,
				messageSid: 'IN-3',
				at: 3,
				optOut: true,
			}),
		).toBe(true);
		expect(
			await ledger.recordReply({
				campaign: 'c1',
				line: 99,
				messageSid: 'IN-4',
				at: 4,
				optOut: true,
			}),
		).toBe(false);
		expect(
			await ledger.recordReply({
				campaign: 'other',
				line: 2,
				messageSid: 'IN-5',
				at: 5,
				optOut: true,
			}),
		).toBe(false);
		expect(await ledger.deliveryCounts('c1')).toMatchObject({ replied: 2, optedOut: 1 });
		await ledger.close();
	});

	it('buckets sends and receipts over time and the time from send to receipt', async () => {
		const ledger = await crashedLedger();
		await ledger.settle(
			'c1',
			2,
			[5, 6, 7].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
		);
		// Answers stored at known moments: lines 2-4 at t0, 5-7 at t0 + 65 s.
		const t0 = 1_700_000_000_000;
		for (const [first, at] of [
			[2, t0],
			[5, t0 + 65_000],
		]) {
			await raw(
				backend,
				`UPDATE answers SET at = ? WHERE first = ?`,
				`UPDATE answers SET at = $1 WHERE first = $2`,
				[at, first],
			);
		}
		await ledger.recordDelivery({
			messageSid: 'SM-2',
			campaign: 'c1',
			line: 2,
			status: 'Delivered',
			at: t0 / 1000 + 1,
			receivedAt: t0 + 1_250,
		});
		await ledger.recordDelivery({
			messageSid: 'SM-6',
			campaign: 'c1',
			line: 6,
			status: 'Failed',
			errorCode: 'UNDELIVERABLE',
			at: t0 / 1000 + 66,
			receivedAt: t0 + 65_000 + 3_000,
		});
		await ledger.recordDelivery({
			messageSid: 'SM-7',
			campaign: 'c1',
			line: 7,
			status: 'Delivered',
			at: t0 / 1000 + 66,
		});
		expect(await ledger.activitySpan('c1')).toEqual({ from: t0 / 1000, to: t0 / 1000 + 66 });
		const figures = await ledger.reportFigures('c1', 60);
		const minute = Math.floor(t0 / 1000 / 60) * 60;
		expect(figures.sends).toEqual([
			{ at: minute, count: 3 },
			{ at: minute + 60, count: 3 },
		]);
		expect(figures.deliveries).toEqual([
			{ at: minute, delivered: 1, failed: 0 },
			{ at: minute + 60, delivered: 1, failed: 1 },
		]);
		// 1.25 s, 3 s, and 1 s from the Timestamp where the arrival is not known.
		expect(figures.receiptTenths).toEqual([
			{ tenths: 10, count: 1 },
			{ tenths: 12, count: 1 },
			{ tenths: 30, count: 1 },
		]);
		expect(figures.failuresByPrefix).toEqual([
			{ prefix: '+61491', sample: '+61491570156', count: 1 },
		]);
		await ledger.close();
	});

	describe('rows a receipt showed were sent after their answer was lost', () => {
		const t0 = 1_700_000_000_000;
		const t1 = t0 + 125_000;
		const minute = (ms: number) => Math.floor(ms / 1000 / 60) * 60;
		/** The answer for lines 2-4 stored at t0; the request of lines 5-7 left at t1. */
		const timed = async (ledger: Ledger) => {
			await raw(backend, `UPDATE answers SET at = ?`, `UPDATE answers SET at = $1`, [t0]);
			await raw(backend, `UPDATE submissions SET at = ?`, `UPDATE submissions SET at = $1`, [t1]);
			return ledger;
		};
		const expectTimedFromRequest = async (ledger: Ledger) => {
			const figures = await ledger.reportFigures('c1', 60);
			expect(figures.sentByReceipt).toBe(3);
			expect(figures.sends).toEqual([
				{ at: minute(t0), count: 3 },
				{ at: minute(t1), count: 3 },
			]);
			// Each received 2 s after its request left.
			expect(figures.receiptTenths).toEqual([{ tenths: 20, count: 3 }]);
			expect(await ledger.activitySpan('c1')).toEqual({ from: t0 / 1000, to: t1 / 1000 + 2 });
		};
		const receipt = (line: number) => ({
			messageSid: `SM-${line}`,
			campaign: 'c1',
			line,
			status: 'Delivered' as const,
			at: t1 / 1000 + 2,
			receivedAt: t1 + 2_000,
		});

		it('an answer lost in flight: timed from when the request left', async () => {
			const ledger = await timed(await crashedLedger());
			await ledger.settle(
				'c1',
				2,
				[5, 6, 7].map((line) => ({
					line,
					status: 'uncertain' as const,
					message: 'answer lost: UND_ERR_SOCKET: other side closed',
				})),
			);
			for (const line of [5, 6, 7])
				expect(await ledger.recordDelivery(receipt(line))).toMatchObject({ resolved: true });
			await expectTimedFromRequest(ledger);
			await ledger.close();
		});

		it('a crash: timed from when the request left, whether the receipt came before the resume, after it, or was stored by an older worker', async () => {
			const ledger = await timed(await crashedLedger());
			await ledger.recordDelivery(receipt(5));
			await ledger.recoverSubmitting('c1');
			expect(await ledger.recordDelivery(receipt(6))).toMatchObject({ resolved: true });
			const insert = `INSERT INTO deliveries (campaign, line, message_sid, status, at, received_at) VALUES ('c1', 7, 'SM-7', 'Delivered', ${t1 / 1000 + 2}, ${t1 + 2_000})`;
			await raw(backend, insert, insert);
			expect(await ledger.requeueUncertain('c1')).toBe(0);
			expect((await ledger.counts('c1')).rows).toMatchObject({
				accepted: 6,
				uncertain: 0,
				pending: 0,
			});
			await expectTimedFromRequest(ledger);
			await ledger.close();
		});

		it('sent again after --resend-uncertain: timed by its new answer, not its lost request', async () => {
			const ledger = await timed(await crashedLedger());
			await ledger.recoverSubmitting('c1');
			expect(await ledger.requeueUncertain('c1')).toBe(3);
			await ledger.markSubmitting('c1', [5, 6, 7], 3);
			await ledger.settle(
				'c1',
				3,
				[5, 6, 7].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-${line}` })),
			);
			expect((await ledger.reportFigures('c1', 60)).sentByReceipt).toBe(0);
			await ledger.close();
		});
	});
});

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PgCluster } from '../../../../worker/src/storage/postgres/pgCluster';
import { PgLedger } from '../../../../worker/src/storage/postgres/pgLedger';
import { openPostgres } from '../../../../worker/src/storage/postgres/pgDatabase';
import { WORKER_ID } from '../../../../worker/src/storage/workerId';
import { newDatabase, postgresAt, sql } from '../../../support/postgres/database';

let url: string;
const open: { close(): Promise<void> }[] = [];
beforeAll(async () => {
	url = await newDatabase('shared');
});
afterEach(async () => {
	for (const o of open.splice(0)) await o.close();
});

async function ledger(): Promise<PgLedger> {
	const l = new PgLedger(await openPostgres(postgresAt(url)));
	open.push(l);
	return l;
}

async function campaign(name: string, lines: number): Promise<PgLedger> {
	const l = await ledger();
	await l.createCampaign({ name, csvPath: '/list.csv', propertySid: 'PR1', text: 'Hi' });
	await l.importBatch(
		name,
		Array.from({ length: lines }, (_, i) => ({
			line: i + 2,
			to: `+61491${String(i).padStart(6, '0')}`,
			text: 'Hi',
			segments: 1,
			status: 'pending' as const,
		})),
		lines + 1,
	);
	return l;
}

describe('the ledger shared by several workers (postgres)', () => {
	it('gives each chunk of rows to exactly one of many workers claiming at once, in line order, suppressed rows settled on the way', async () => {
		const first = await campaign('s1', 500);
		await first.addSuppression('+61491000010', 'replied STOP');
		const others = [first, await ledger(), await ledger(), await ledger()];
		const claimed: number[] = [];
		let suppressed = 0;
		let chunks = 0;
		await Promise.all(
			others.map(async (l) => {
				for (;;) {
					const c = await l.claimChunk('s1', 25);
					suppressed += c.suppressed;
					if (c.rows.length === 0 && c.suppressed === 0) return;
					expect(c.rows.map((r) => r.line)).toEqual(
						[...c.rows.map((r) => r.line)].sort((a, b) => a - b),
					);
					if (c.rows.length > 0) chunks++;
					claimed.push(...c.rows.map((r) => r.line));
				}
			}),
		);
		expect(claimed).toHaveLength(499);
		expect(new Set(claimed).size).toBe(499);
		expect(suppressed).toBe(1);
		expect((await first.counts('s1')).rows).toMatchObject({
			submitting: 499,
			suppressed: 1,
			pending: 0,
		});
		// Claims racing each other may find rows locked and take fewer than 25: one submission
		// per chunk handed out, however they fell.
		expect(chunks).toBeGreaterThanOrEqual(Math.ceil(499 / 25));
		expect(await first.submissionsInFlight('s1')).toBe(chunks);
	});

	it('claims a range of lines no chunk on its way covers: rows sent again behind one are claimed up to it, not across it', async () => {
		const l = await campaign('s4', 10);
		const a = await l.claimChunk('s4', 3);
		const b = await l.claimChunk('s4', 3);
		expect([a, b].map((c) => c.rows.map((r) => r.line))).toEqual([
			[2, 3, 4],
			[5, 6, 7],
		]);
		// Line 3's answer was lost; asked to, the run sends it again while chunk b is still out.
		await l.settle('s4', a.chunk, [
			{ line: 2, status: 'accepted', messageSid: 'SM-s4-2' },
			{ line: 3, status: 'uncertain', message: 'the answer was lost' },
			{ line: 4, status: 'accepted', messageSid: 'SM-s4-4' },
		]);
		expect(await l.requeueUncertain('s4')).toBe(1);
		const again = await l.claimChunk('s4', 5);
		expect(again.rows.map((r) => r.line)).toEqual([3]);
		expect((await l.claimChunk('s4', 5)).rows.map((r) => r.line)).toEqual([8, 9, 10, 11]);
		expect((await l.counts('s4')).rows).toMatchObject({ submitting: 8, accepted: 2, pending: 0 });
		// Each chunk settles exactly its own rows.
		await l.settle(
			's4',
			b.chunk,
			[5, 6, 7].map((line) => ({ line, status: 'accepted' as const, messageSid: `SM-s4-${line}` })),
		);
		await l.settle('s4', again.chunk, [{ line: 3, status: 'accepted', messageSid: 'SM-s4-3' }]);
		expect((await l.counts('s4')).rows).toMatchObject({ submitting: 4, accepted: 6, pending: 0 });
		const sids: Record<number, string | undefined> = {};
		for await (const r of l.rows('s4', ['accepted'])) sids[r.line] = r.messageSid;
		expect(sids).toEqual({
			2: 'SM-s4-2',
			3: 'SM-s4-3',
			4: 'SM-s4-4',
			5: 'SM-s4-5',
			6: 'SM-s4-6',
			7: 'SM-s4-7',
		});
		expect(await l.sentTo('SM-s4-3')).toBe('+61491000001');
	});

	it('holds one rate across workers: slots of the campaign follow one another, whoever takes them', async () => {
		const a = await campaign('s2', 1);
		const b = await ledger();
		// 10 messages at 10/s: a slot of one second each. A slot is the moment Postgres
		// answered the call plus its wait, by Postgres's clock: between the call's start and
		// its end, plus the wait. Each slot follows the last by one second, or is now if that
		// moment has passed (calls slower than a slot): whoever takes it, however fast.
		const slots: { start: number; end: number; earliest: number; latest: number }[] = [];
		for (let i = 0; i < 6; i++) {
			const start = Date.now();
			const wait = await (i % 2 === 0 ? a : b).pace('s2', 10, 10);
			const end = Date.now();
			slots.push({ start, end, earliest: start + wait, latest: end + wait });
		}
		// 1 ms either way: Postgres's clock has microseconds, Date.now() whole milliseconds.
		for (let i = 1; i < slots.length; i++) {
			const [last, slot] = [slots[i - 1], slots[i]];
			expect(slot.latest).toBeGreaterThanOrEqual(Math.max(last.earliest + 1000, slot.start) - 1);
			expect(slot.earliest).toBeLessThanOrEqual(Math.max(last.latest + 1000, slot.end) + 1);
		}
		// Another campaign has its own rate.
		expect(await b.pace('other', 10, 10)).toBeLessThan(1);
	});

	it("settles a lost worker's chunks once its lease runs out: uncertain, or accepted where a receipt came; live workers' chunks untouched", async () => {
		const l = await campaign('s3', 6);
		const cluster = new PgCluster(await openPostgres(postgresAt(url)));
		open.push(cluster);
		const mine = await l.claimChunk('s3', 2);
		const lost = await l.claimChunk('s3', 3);
		// The second chunk was taken by a worker that has since died: its lease is 10 s old.
		await sql(url, `UPDATE submissions SET worker = 'dead-worker' WHERE chunk = $1`, [lost.chunk]);
		await sql(
			url,
			`INSERT INTO workers (id, host, pid, started_at, heartbeat_at) VALUES ('dead-worker', 'elsewhere', 1, 0, (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 10000)`,
		);
		await l.recordDelivery({
			messageSid: 'SM-5',
			campaign: 's3',
			line: 5,
			status: 'Delivered',
			at: 1,
		});
		await l.stampCallbacksIn('dead-worker');
		// A lease is judged only once the judge has itself reached Postgres for a lease's length (300 ms here).
		let reaped: Awaited<ReturnType<PgCluster['reap']>> = [];
		for (let beats = 0; reaped.length === 0; beats++) {
			expect(beats).toBeLessThan(200);
			await cluster.beat();
			reaped = await cluster.reap(300);
			if (reaped.length === 0) await new Promise((r) => setTimeout(r, 50));
		}
		expect(reaped).toEqual([
			{
				id: 'dead-worker',
				host: 'elsewhere',
				pid: 1,
				rows: expect.arrayContaining([
					{ campaign: 's3', line: 4, status: 'uncertain' },
					{ campaign: 's3', line: 5, status: 'accepted' },
					{ campaign: 's3', line: 6, status: 'uncertain' },
				]),
			},
		]);
		// Runs no longer wait for its callbacks (CallbacksGate).
		expect((await l.callbacksStamps()).map((st) => st.worker)).not.toContain('dead-worker');
		// Only one reaper wins.
		expect(await cluster.reap(300)).toEqual([]);
		const statuses: Record<number, string> = {};
		for await (const r of l.rows('s3')) statuses[r.line] = r.status;
		expect(statuses).toEqual({
			2: 'submitting',
			3: 'submitting',
			4: 'uncertain',
			5: 'accepted',
			6: 'uncertain',
			7: 'pending',
		});
		expect(await sql(url, `SELECT worker FROM submissions WHERE campaign = 's3'`)).toEqual([
			{ worker: WORKER_ID },
		]);
		expect(mine.rows.map((r) => r.line)).toEqual([2, 3]);
	});
	it('settles a receipt whichever worker indexed its answer: two workers taking receipts of one answer at once both find their rows, as does a START', async () => {
		const a = await campaign('s5', 80);
		const b = await ledger();
		const missed: string[] = [];
		for (let chunk = 1; chunk <= 40; chunk++) {
			const lines = [chunk * 2, chunk * 2 + 1];
			await a.markSubmitting('s5', lines, chunk);
			await a.settle(
				's5',
				chunk,
				lines.map((line) => ({ line, status: 'accepted' as const, messageSid: `SM${line}` })),
			);
			// The first receipts of an answer, at two workers at once: both look the answer up, one indexes it.
			const found = await Promise.all([
				a.recordDelivery({ messageSid: `SM${lines[0]}`, status: 'Delivered', at: 1_700_000_000 }),
				chunk % 2
					? b.recordDelivery({
							messageSid: `SM${lines[1]}`,
							status: 'Delivered',
							at: 1_700_000_000,
						})
					: b.sentTo(`SM${lines[1]}`),
			]);
			if (!found[0]) missed.push(`SM${lines[0]}`);
			if (!found[1]) missed.push(`SM${lines[1]}`);
		}
		expect(missed).toEqual([]);
		expect((await a.deliveryCounts('s5')).delivered).toBe(60);
	});
});

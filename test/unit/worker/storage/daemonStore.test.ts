import { afterEach, describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../../../../api';
import type { DaemonStore } from '../../../../worker/src/storage/daemonStore';
import { openDaemonStore, openLedger } from '../../../../worker/src/storage/openStores';
import { sql } from '../../../support/postgres/database';
import { storeBackends } from '../../../support/storeBackends';

const backends = storeBackends();
const stores: DaemonStore[] = [];
afterEach(async () => {
	for (const s of stores.splice(0)) await s.close();
});

function receipt(sid: string): CallbackEvent {
	return {
		kind: 'receipt',
		data: {
			MessageSid: sid,
			AccountSid: 'AC1',
			PropertySid: 'PR1',
			Status: 'Delivered',
			ErrorCode: '',
			ExternalId: 'c1:2',
			Timestamp: 1_700_000_000,
		},
	} as unknown as CallbackEvent;
}

describe.each(backends)('the daemon store ($name)', (backend) => {
	const open = async () => {
		const s = await openDaemonStore(backend.location());
		stores.push(s);
		return s;
	};

	it('records a callback once, however often it comes, and keeps it until processed', async () => {
		const s = await open();
		expect(await s.recordEvent('receipt:SM1:Delivered', receipt('SM1'), 1000)).toBe(true);
		// The same callback again, through another worker's connection.
		const other = await open();
		expect(await other.recordEvent('receipt:SM1:Delivered', receipt('SM1'), 1001)).toBe(false);
		expect(await s.recordEvent('receipt:SM2:Delivered', receipt('SM2'), 1002)).toBe(true);
		expect(await s.waitingEvents()).toBe(2);
		expect((await s.unprocessedEvents(10)).map((e) => [e.key, e.receivedAt])).toEqual([
			['receipt:SM1:Delivered', 1000],
			['receipt:SM2:Delivered', 1002],
		]);
		await s.completeEvents([{ key: 'receipt:SM1:Delivered', forwards: [] }], 2000);
		expect((await other.unprocessedEvents(10)).map((e) => e.key)).toEqual([
			'receipt:SM2:Delivered',
		]);
		expect(await other.waitingEvents()).toBe(1);
	});

	it('lets only one of two workers take a forward', async () => {
		const a = await open();
		const b = await open();
		const payload = {
			action: { type: 'forwardEmail', to: ['x@example.com'] },
			context: { reply: { MessageSid: 'R1' }, receivedAt: 0 },
		} as never;
		await a.completeEvents([{ key: 'reply:R1', forwards: [{ actionKey: '0.0', payload }] }], 10);
		await b.completeEvents([{ key: 'reply:R1', forwards: [{ actionKey: '0.0', payload }] }], 11);
		expect((await a.forwards()).length).toBe(1);
		const taken = await Promise.all([a.claimDue(100, 10), b.claimDue(100, 10)]);
		expect(taken.map((jobs) => jobs.length).sort()).toEqual([0, 1]);
		expect(taken.flat()[0]).toMatchObject({ state: 'sending', attempts: 1 });
		expect(await a.forwardCounts()).toMatchObject({ sending: 1, pending: 0 });
	});

	it('keeps one record per campaign run and lists those not finished', async () => {
		const s = await open();
		await s.startRun({ run: 'daily-20260101T090000Z', campaign: 'daily', startedAt: 1 });
		await s.startRun({ run: 'daily-20260101T090000Z', campaign: 'daily', startedAt: 2 });
		await s.startRun({ run: 'daily-20260102T090000Z', campaign: 'daily', startedAt: 3 });
		await s.finishRun('daily-20260101T090000Z', 'finished', 4);
		expect(await s.unfinishedRuns()).toEqual([
			{ run: 'daily-20260102T090000Z', campaign: 'daily', startedAt: 3 },
		]);
	});

	it("queues a run's events only with the start that made it and the finish that closed it, as two workers joining one run would", async () => {
		const a = await open();
		const b = await open();
		const event = (key: string, type: string) => ({
			eventKey: key,
			actionKey: 'events',
			payload: { action: { type } },
		});
		const run = { run: 'daily-20260103T090000Z', campaign: 'daily', startedAt: 1 };
		await a.startRun(run, [event('started:a', 'event')]);
		await b.startRun({ ...run, startedAt: 2 }, [event('started:b', 'event')]);
		await a.finishRun(run.run, 'finished', 3, [event('finished:a', 'event')]);
		await b.finishRun(run.run, 'failed', 4, [event('finished:b', 'event')]);
		expect((await a.forwards()).map((f) => [f.eventKey, f.state, f.payload.action.type])).toEqual([
			['started:a', 'pending', 'event'],
			['finished:a', 'pending', 'event'],
		]);
		// The later finish still records its outcome.
		expect(await a.finishedRunsBefore(5)).toEqual([run.run]);
		await a.queueForwards([event('started:a', 'other'), event('extra', 'event')], 5);
		expect((await b.forwards()).map((f) => [f.eventKey, f.payload.action.type])).toEqual([
			['started:a', 'event'],
			['finished:a', 'event'],
			['extra', 'event'],
		]);
	});
});

describe.each(backends.filter((b) => b.name === 'postgres'))(
	'the daemon store shared by several workers ($name)',
	(backend) => {
		it('recovers only the forwards of workers whose lease is gone, and puts one back only while its worker is still gone', async () => {
			const s = await openDaemonStore(backend.location());
			stores.push(s);
			const url = (backend.location() as { url: string }).url;
			const payload = (sid: string) =>
				({
					action: { type: 'forwardEmail', to: ['x@example.com'] },
					context: { reply: { MessageSid: sid }, receivedAt: 0 },
				}) as never;
			await s.completeEvents(
				[
					{ key: 'reply:A', forwards: [{ actionKey: '0.0', payload: payload('A') }] },
					{ key: 'reply:B', forwards: [{ actionKey: '0.0', payload: payload('B') }] },
				],
				1,
			);
			const [a, b] = await s.claimDue(10, 10);
			// A is being attempted by a live worker; B by one whose lease is gone.
			await sql(
				url,
				`INSERT INTO workers (id, host, pid, started_at, heartbeat_at) VALUES ('live', 'h', 1, 0, 0)`,
			);
			await sql(url, `UPDATE forwards SET worker = 'live' WHERE id = $1`, [a.id]);
			await sql(url, `UPDATE forwards SET worker = 'gone' WHERE id = $1`, [b.id]);
			expect((await s.interruptedForwards()).map((f) => f.id)).toEqual([b.id]);
			// Another worker put B back and is attempting it now: a late requeue leaves it be.
			await s.requeue(b.id, 3);
			expect((await s.claimDue(10, 10)).map((f) => f.id)).toEqual([b.id]);
			await sql(url, `UPDATE forwards SET worker = 'live' WHERE id = $1`, [b.id]);
			await s.requeue(b.id, 5);
			expect(await s.forwardCounts()).toMatchObject({ sending: 2, pending: 0 });
		});
	},
);

describe.each(backends)('the daemon store beside the ledger ($name)', (backend) => {
	it('works beside an open ledger, and closing it leaves the ledger open', async () => {
		const ledger = await openLedger(backend.location());
		const s = await openDaemonStore(backend.location(), ledger);
		expect(await s.recordEvent('receipt:SM9:Delivered', receipt('SM9'), 1000)).toBe(true);
		await ledger.addSuppression('+61491000009', 'replied STOP');
		await s.close();
		expect(await ledger.isSuppressed('+61491000009')).toBe(true);
		const again = await openDaemonStore(backend.location(), ledger);
		expect((await again.unprocessedEvents(10)).map((e) => e.key)).toEqual([
			'receipt:SM9:Delivered',
		]);
		await again.close();
		await ledger.close();
	});
});

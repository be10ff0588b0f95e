import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackProcessor } from '../../../../worker/src/daemon/callbacks/3-processor/callbackProcessor';
import type { ForwardOutbox } from '../../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import type { EventStore, StoredEvent } from '../../../../worker/src/storage/daemonStore';
import type { CallbackLedger, LedgerReader } from '../../../../worker/src/storage/ledger';

afterEach(() => vi.useRealTimers());

/** A store holding `events` once, and a ledger that finds every receipt's row. */
function fixtures(events: StoredEvent[]) {
	let pending = events;
	const store = {
		unprocessedEvents: async () => {
			const out = pending;
			pending = [];
			return out;
		},
		completeEvents: async () => undefined,
		processingAlone: (pass: () => Promise<unknown>) => pass(),
	} as unknown as EventStore;
	const ledger = {
		recordDelivery: async (d: { campaign: string; line: number }) => ({
			campaign: d.campaign,
			line: d.line,
			resolved: false,
		}),
	} as unknown as CallbackLedger & Pick<LedgerReader, 'campaign'>;
	return { store, ledger, add: (more: StoredEvent[]) => (pending = more) };
}

function receipt(i: number, status: 'Delivered' | 'Failed', campaign = 'spring'): StoredEvent {
	return {
		key: `receipt:SM${i}`,
		receivedAt: Date.now(),
		event: {
			kind: 'receipt',
			data: {
				AccountSid: 'AC',
				MessageSid: `SM${i}`,
				ExternalId: `${campaign}:${i + 2}`,
				Status: status,
				ErrorCode: status === 'Failed' ? 'UNDELIVERABLE' : '',
				Timestamp: 0,
			},
		},
	} as unknown as StoredEvent;
}

describe('receipts in the log', () => {
	it('one line each at debug, and at info one summary a minute by campaign', async () => {
		vi.useFakeTimers();
		const lines: Record<string, unknown>[] = [];
		const log = new JsonLogger((text) =>
			lines.push(
				...text
					.trim()
					.split('\n')
					.map((l) => JSON.parse(l) as Record<string, unknown>),
			),
		);
		const { store, ledger, add } = fixtures([
			...Array.from({ length: 294 }, (_, i) => receipt(i, i % 98 === 0 ? 'Failed' : 'Delivered')),
			receipt(500, 'Delivered', 'autumn'),
		]);
		const processor = new CallbackProcessor(
			store,
			ledger,
			[],
			{ kick: () => undefined } as unknown as ForwardOutbox,
			log,
		);
		processor.start();
		await processor.idle();
		await vi.advanceTimersByTimeAsync(0);
		expect(lines.filter((l) => l.msg === 'delivery receipt')).toEqual([]);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(lines.filter((l) => l.msg === 'delivery receipts')).toEqual([
			expect.objectContaining({
				level: 'info',
				delivered: 292,
				failed: 3,
				campaigns: { spring: { delivered: 291, failed: 3 }, autumn: { delivered: 1, failed: 0 } },
			}),
		]);
		// The next minute counts afresh; a minute with no receipt says nothing.
		add([receipt(600, 'Delivered')]);
		processor.kick();
		await processor.idle();
		await vi.advanceTimersByTimeAsync(120_000);
		expect(lines.filter((l) => l.msg === 'delivery receipts').map((l) => l.delivered)).toEqual([
			292, 1,
		]);
	});
});

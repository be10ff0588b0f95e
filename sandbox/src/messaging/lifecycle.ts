import type { DeliveryReceiptCallback, ReceiptStatus } from '../../../api';
import type { CallbackDispatcher } from '../callbacks/dispatcher';
import type { Clock } from '../state/clock';
import type { MessageRecord } from '../state/records';
import type { LeasePool } from './leases';
import { deliveryOutcome } from './magicNumbers';

/** A FIFO that does not copy on shift, for queues that reach hundreds of thousands. */
class Queue<T> {
	private items: T[] = [];
	private head = 0;
	push(item: T): void {
		this.items.push(item);
	}
	peek(): T | undefined {
		return this.items[this.head];
	}
	shift(): T | undefined {
		if (this.head >= this.items.length) return undefined;
		const item = this.items[this.head++];
		if (this.head > 4096 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return item;
	}
}

/**
 * Each message's life: Scheduled until its time on the sandbox clock, then Processing,
 * Sent on the next tick, and Delivered or Failed after the receipt delay, when its
 * receipt is called back. One timer drives every message, so load stays flat.
 */
export class Lifecycle {
	private readonly scheduled = new Set<MessageRecord>();
	private readonly processing = new Queue<MessageRecord>();
	private readonly sent = new Queue<{ message: MessageRecord; dueMs: number }>();
	private readonly settled = new WeakSet<MessageRecord>();
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly clock: Clock,
		private readonly leases: LeasePool,
		private readonly dispatcher: CallbackDispatcher,
		private readonly receiptDelayMs: number,
	) {}

	start(intervalMs = 25): void {
		this.timer = setInterval(() => this.tick(), intervalMs);
		this.timer.unref();
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
	}

	admit(message: MessageRecord): void {
		if (message.Status === 'Scheduled') this.scheduled.add(message);
		else this.processing.push(message);
	}

	tick(): void {
		const now = this.clock.now();
		for (const m of this.scheduled) {
			if ((m.Schedule ?? 0) <= now) {
				this.scheduled.delete(m);
				m.Status = 'Processing';
				this.processing.push(m);
			}
		}
		this.leases.expire(now);
		const nowMs = Date.now();
		for (let m = this.processing.shift(); m; m = this.processing.shift()) {
			if (this.settled.has(m)) continue;
			m.Status = 'Sent';
			this.sent.push({ message: m, dueMs: nowMs + this.receiptDelayMs });
		}
		for (let head = this.sent.peek(); head && head.dueMs <= nowMs; head = this.sent.peek()) {
			this.sent.shift();
			if (this.settled.has(head.message)) continue;
			const outcome = deliveryOutcome(head.message.To);
			this.settle(head.message, outcome.Status, outcome.ErrorCode);
		}
	}

	/** POST /_sandbox/receipts: the receipt arrives now, whatever the message's state. */
	settle(
		message: MessageRecord,
		status: ReceiptStatus,
		errorCode = status === 'Failed' ? 'UNDELIVERABLE' : '',
	): void {
		this.scheduled.delete(message);
		this.settled.add(message);
		message.Status = status;
		message.ErrorCode = errorCode;
		if (!message.DeliveryReceipt || !message.DeliveryReceiptWebhookUri) return;
		const payload: DeliveryReceiptCallback = {
			MessageSid: message.MessageSid,
			AccountSid: message.AccountSid,
			PropertySid: message.PropertySid,
			From: message.From,
			To: message.To,
			Status: status,
			ErrorCode: errorCode,
			ExternalId: message.ExternalId,
			Timestamp: this.clock.now(),
		};
		this.dispatcher.send(
			'DeliveryReceipt',
			message.DeliveryReceiptWebhookUri,
			message.DeliveryReceiptWebhookMethod,
			payload,
		);
	}
}

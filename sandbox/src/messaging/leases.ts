import type { LeaseRecord } from '../state/records';

export const LEASE_SECONDS = 30 * 24 * 60 * 60;
export const LEASES_PER_RECIPIENT = 5;

/** The sandbox's pool of leased numbers: Australian mobiles in a block of its own. */
export const LEASE_POOL = Array.from(
	{ length: 10 },
	(_, i) => `+6148000${String(i + 1).padStart(4, '0')}`,
);

/**
 * Leased sender IDs: each leased send borrows a pool number for its recipient for 30 days,
 * so a reply to that number finds the message (and its reply options) again. A recipient's
 * active leases all have different numbers, at most 5 at once; a sixth replaces the oldest.
 */
export class LeasePool {
	/** By recipient, oldest first: every lookup the interface needs starts from the recipient. */
	private readonly byRecipient = new Map<string, LeaseRecord[]>();
	/** The soonest any lease expires: until then a sweep would find nothing. */
	private earliest = Infinity;

	constructor(private readonly pool: readonly string[] = LEASE_POOL) {}

	private activeFor(recipient: string, now: number): LeaseRecord[] {
		const active = (this.byRecipient.get(recipient) ?? []).filter((l) => l.Expires > now);
		if (active.length > 0) this.byRecipient.set(recipient, active);
		else this.byRecipient.delete(recipient);
		return active;
	}

	lease(accountSid: string, recipient: string, messageSid: string, now: number): string {
		const active = this.activeFor(recipient, now);
		while (active.length >= LEASES_PER_RECIPIENT) active.shift();
		const taken = new Set(active.map((l) => l.Number));
		const number = this.pool.find((n) => !taken.has(n))!;
		active.push({
			Number: number,
			Recipient: recipient,
			AccountSid: accountSid,
			MessageSid: messageSid,
			Created: now,
			Expires: now + LEASE_SECONDS,
		});
		this.byRecipient.set(recipient, active);
		this.earliest = Math.min(this.earliest, now + LEASE_SECONDS);
		return number;
	}

	/** The active lease a reply from `replier` to `number` belongs to. */
	find(number: string, replier: string, now: number): LeaseRecord | undefined {
		return this.activeFor(replier, now).find((l) => l.Number === number);
	}

	/**
	 * Runs on every lifecycle tick. A campaign leases for hundreds of thousands of
	 * recipients, and walking them all 40 times a second starved the request handlers;
	 * leases last 30 days and the clock only moves forward, so sweep only once one is due.
	 */
	expire(now: number): void {
		if (now < this.earliest) return;
		this.earliest = Infinity;
		for (const recipient of this.byRecipient.keys()) {
			for (const l of this.activeFor(recipient, now))
				this.earliest = Math.min(this.earliest, l.Expires);
		}
	}

	all(): LeaseRecord[] {
		return [...this.byRecipient.values()].flat();
	}
}

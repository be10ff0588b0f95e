import type { Ledger, PausedBy, SettledRow } from '../storage/ledger';
import type { Chunk } from './chunkSource';
import type { SpendCap } from './spendCap';

type Settle = (chunk: number, rows: SettledRow[]) => Promise<void>;

/** Statuses of a settled row whose message was not handed over, or not taken: nothing to pay. */
const UNPAID = new Set<SettledRow['status']>(['pending', 'suppressed', 'capped', 'rejected']);

/**
 * A chunk as far as the spend cap pays for it: its first rows that fit, the others back to
 * pending when it settles (the chunk is one submission, settled once), and `onCut` told.
 * Its settle gives back what was paid for rows that did not go after all.
 */
export async function paidFor(
	caps: readonly SpendCap[],
	chunk: Chunk,
	settle: Settle,
	onCut: (by: SpendCap) => void,
): Promise<{ chunk: Chunk; settle: Settle }> {
	if (caps.length === 0) return { chunk, settle };
	// Each cap pays for what the ones before it did; the earlier ones then give back the excess.
	let fit = chunk.rows.length;
	const reserved: [SpendCap, number][] = [];
	for (const cap of caps) {
		const n = await cap.reserve(chunk.rows.slice(0, fit));
		if (n < fit) onCut(cap);
		reserved.push([cap, n]);
		fit = n;
	}
	for (const [cap, n] of reserved)
		if (n > fit) await cap.release(segmentsOf(chunk.rows.slice(fit, n)));
	const paid = chunk.rows.slice(0, fit);
	const cut: SettledRow[] = chunk.rows.slice(fit).map((r) => ({ line: r.line, status: 'pending' }));
	const segments = new Map(paid.map((r) => [r.line, r.segments]));
	return {
		chunk: { ...chunk, rows: paid },
		settle: async (c, rows) => {
			await settle(c, [...rows, ...cut]);
			let unpaid = 0;
			for (const r of rows) if (UNPAID.has(r.status)) unpaid += segments.get(r.line) ?? 0;
			for (const cap of caps) await cap.release(unpaid);
		},
	};
}

/** Pauses the campaign for its spend cap, for every worker sending it; returns why. */
export async function spendCapPause(
	ledger: Ledger,
	campaign: string,
	cap: SpendCap,
): Promise<PausedBy> {
	const pending = (await ledger.counts(campaign)).rows.pending;
	const by = await cap.pausedBy(pending);
	await ledger.setPaused(campaign, true, by);
	return by;
}

const segmentsOf = (rows: readonly { segments: number }[]) =>
	rows.reduce((n, r) => n + r.segments, 0);

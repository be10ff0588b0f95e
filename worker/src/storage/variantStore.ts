import type { WinnerBy } from '../settings/campaignSpec';
import { variantSql } from './variantSql';
import { all, get, run, type SqlDb } from './work';

/** One variant's rows and what came of them: sent is accepted by the provider. */
export interface VariantTally {
	variant: number;
	rows: number;
	sent: number;
	delivered: number;
	failed: number;
	/** Rows with a reply that did not opt out, and rows whose reply did. */
	replies: number;
	optOuts: number;
	/** Rows whose tracked links were followed by a person (previews and scanners not counted). */
	clicks: number;
}

/** The winner, stored once: `rates` has one per variant (null where none was sent). */
export interface VariantDecision {
	winner: number;
	by: WinnerBy;
	rates: (number | null)[];
	byHand: boolean;
	/** Unix milliseconds. */
	decidedAt: number;
}

interface DecisionRow {
	winner: number;
	winner_by: WinnerBy;
	rates: string;
	by_hand: number | boolean;
	decided_at: number | string;
}

const decisionOf = (r: DecisionRow | undefined): VariantDecision | undefined =>
	r && {
		winner: Number(r.winner),
		by: r.winner_by,
		rates: JSON.parse(r.rates) as (number | null)[],
		byHand: r.by_hand === true || r.by_hand === 1,
		decidedAt: Number(r.decided_at),
	};

/** A variant campaign's rows and decision, on either backend. */
export class VariantStore {
	private readonly q;
	constructor(private readonly db: SqlDb) {
		this.q = variantSql(db.dialect);
	}

	async tally(name: string): Promise<VariantTally[]> {
		const rows = await this.db.run(all<Record<string, number | string>>(this.q.tally, name));
		return rows.map((r) => ({
			variant: Number(r.variant),
			rows: Number(r.n),
			sent: Number(r.sent),
			delivered: Number(r.delivered),
			failed: Number(r.failed),
			replies: Number(r.replies),
			optOuts: Number(r.opt_outs),
			clicks: Number(r.clicks),
		}));
	}

	async testRows(name: string): Promise<number> {
		return Number((await this.db.run(get<{ n: number }>(this.q.testRows, name)))?.n ?? 0);
	}

	/** Unix milliseconds of the campaign's last answer: the test's last send, before the decision. */
	async lastAnswerAt(name: string): Promise<number | undefined> {
		const at = (await this.db.run(get<{ at: number | null }>(this.q.lastAnswer, name)))?.at;
		return at === null || at === undefined ? undefined : Number(at);
	}

	async decision(name: string): Promise<VariantDecision | undefined> {
		return decisionOf(await this.db.run(get<DecisionRow>(this.q.decision, name)));
	}

	/**
	 * Stores the decision unless one is stored already, and gives the held rows the stored
	 * winner's text, in one transaction: a crash leaves either no decision and every row held,
	 * or both. `decided` is false when an earlier decision stood.
	 */
	async decide(
		name: string,
		d: VariantDecision,
	): Promise<{ decision: VariantDecision; decided: boolean; released: number }> {
		const q = this.q;
		return this.db.tx(
			(function* () {
				const decided =
					(yield* run(
						q.insertDecision,
						name,
						d.winner,
						d.by,
						JSON.stringify(d.rates),
						d.byHand ? 1 : 0,
						d.decidedAt,
					)) > 0;
				const decision = decisionOf(yield* get<DecisionRow>(q.decision, name))!;
				const released = yield* run(q.releaseHeld, name, decision.winner);
				return { decision, decided, released };
			})(),
			'write',
		);
	}
}

/** An answer's accepted messages as the ledger stores them: [line, MessageSid] in line order. */
export type SidPairs = [line: number, messageSid: string][];

export interface StoredAnswer {
	first: number;
	last: number;
	sids: string;
}

export function encodeSids(pairs: SidPairs): string {
	return JSON.stringify(pairs);
}

export function decodeSids(text: string): SidPairs {
	const pairs: unknown = JSON.parse(text);
	if (!Array.isArray(pairs)) throw new Error('a stored answer is not a list of [line, MessageSid]');
	return pairs as SidPairs;
}

/** How far ahead of the line asked for one query reads answers. */
const WINDOW = 20_000;

/**
 * Finds rows' MessageSids in the answers, for a reader walking rows in line order: each
 * answer is read once, parsed only when one of its rows is asked for, and let go once the
 * walk has passed its last line.
 */
export class AnswerSidReader {
	private active: { answer: StoredAnswer; byLine?: Map<number, string> }[] = [];
	/** Answers starting at or before this line have been read. */
	private readThrough = 0;

	constructor(private readonly read: (fromFirst: number, toFirst: number, reachingLine: number) => StoredAnswer[]) {}

	sid(line: number): string | undefined {
		if (line > this.readThrough) {
			const to = Math.max(line, this.readThrough + WINDOW);
			for (const answer of this.read(this.readThrough + 1, to, line)) this.active.push({ answer });
			this.readThrough = to;
		}
		if (this.active.length > 0 && this.active[0].answer.last < line) this.active = this.active.filter((a) => a.answer.last >= line);
		for (const a of this.active) {
			if (a.answer.first > line) continue;
			a.byLine ??= new Map(decodeSids(a.answer.sids));
			const sid = a.byLine.get(line);
			if (sid !== undefined) return sid;
		}
		return undefined;
	}
}

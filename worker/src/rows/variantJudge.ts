import { createRowJudge, type RowJudge } from './rowJudge';
import type { RowInput, RowRules, RowVerdict } from './rowRules';

/**
 * A variant campaign's judge: each row is judged with every text, and is valid only when
 * it can be sent with any of them (the rest of the list goes with a text not chosen yet).
 * The first text's verdict carries the others' renderings.
 */
export function createVariantJudge(rules: RowRules, texts: string[], threads: number): RowJudge {
	// The number is parsed once per judge: the threads go to the first, the others judge inline.
	const judges = texts.map((text, i) => createRowJudge({ ...rules, text }, i === 0 ? threads : 0));
	return {
		async judge(rows: RowInput[], now: number): Promise<RowVerdict[]> {
			const all = await Promise.all(judges.map((j) => j.judge(rows, now)));
			return all[0].map((first, r) => {
				if (!first.ok) return first;
				const other = all.findIndex((verdicts) => !verdicts[r].ok);
				if (other > 0) {
					const failed = all[other][r] as Extract<RowVerdict, { ok: false }>;
					return { ...failed, reason: `${failed.reason} (with text ${other + 1}, --variant)` };
				}
				// Every text's tokens are stored: the rest goes with a text not chosen yet.
				const links = all.flatMap((verdicts) => (verdicts[r] as typeof first).links ?? []);
				return {
					...first,
					...(links.length > 0 ? { links } : {}),
					variants: all.map((verdicts) => {
						const v = verdicts[r] as Extract<RowVerdict, { ok: true }>;
						return { text: v.text, segments: v.segments, ucs2: v.ucs2 };
					}),
				};
			});
		},
		async close(): Promise<void> {
			await Promise.all(judges.map((j) => j.close()));
		},
	};
}

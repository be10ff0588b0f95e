import type { CampaignStatus, VariantFigures as ApiVariantFigures } from '../../../api';
import type { CampaignSpec, WinnerBy } from '../settings/campaignSpec';
import { variantSettings } from '../settings/variantSettings';
import type { LedgerReader } from '../storage/ledger';

/** The API's figures of one text, and whether links are tracked at all (status and report say "not tracked"). */
export interface VariantFigures extends ApiVariantFigures {
	clicksTracked: boolean;
}

/** The API's winner, with the rates it was decided on. */
export interface VariantWinner extends NonNullable<CampaignStatus['winner']> {
	by: WinnerBy;
	rates: (number | null)[];
}

export interface VariantsStatus {
	variants: VariantFigures[];
	/** `index` is 1-based, as `--winner N` takes it; null until decided. */
	winner: VariantWinner | null;
	testShare: number;
	decideAfterSeconds: number;
}

/** A variant campaign's figures per text and its decision, for status, report and the API; undefined for a campaign of one text. */
export async function variantsStatus(
	ledger: LedgerReader,
	spec: CampaignSpec,
): Promise<VariantsStatus | undefined> {
	const settings = variantSettings(spec);
	if (!settings) return undefined;
	const tallies = await ledger.variants.tally(spec.name);
	const decision = await ledger.variants.decision(spec.name);
	return {
		variants: settings.texts.map((text, i) => {
			const t = tallies.find((x) => x.variant === i + 1) ?? {
				variant: i + 1,
				rows: 0,
				sent: 0,
				delivered: 0,
				failed: 0,
				replies: 0,
				optOuts: 0,
				clicks: 0,
			};
			const clicksTracked = spec.linkBase !== undefined;
			return {
				text,
				rows: t.rows,
				sent: t.sent,
				delivered: t.delivered,
				failed: t.failed,
				replies: t.replies,
				clicks: clicksTracked ? t.clicks : 0,
				clicksTracked,
				optOuts: t.optOuts,
			};
		}),
		winner: decision
			? {
					index: decision.winner,
					by: decision.by,
					byHand: decision.byHand,
					decidedAt: new Date(decision.decidedAt).toISOString(),
					rates: decision.rates,
				}
			: null,
		testShare: settings.testShare,
		decideAfterSeconds: settings.decideAfter,
	};
}

/** The per-text table of status and report. */
export function formatVariants(v: VariantsStatus): string[] {
	const lines = v.variants.map(
		(f, i) =>
			`  ${v.winner?.index === i + 1 ? '*' : ' '}${i + 1} rows ${f.rows}, sent ${f.sent}, delivered ${f.delivered}, failed ${f.failed}, replies ${f.replies}, clicks ${f.clicksTracked ? f.clicks : 'not tracked'}, opted out ${f.optOuts}: ${JSON.stringify(f.text)}`,
	);
	lines.unshift(
		v.winner
			? `  variants: text ${v.winner.index} won (${v.winner.byHand ? 'by hand' : `by ${v.winner.by}`}, ${v.winner.decidedAt})`
			: `  variants: test of ${Math.round(v.testShare * 100)}% of the list, no winner yet`,
	);
	return lines;
}

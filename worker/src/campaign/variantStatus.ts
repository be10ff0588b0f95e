import type { CampaignSpec, WinnerBy } from '../settings/campaignSpec';
import { variantSettings } from '../settings/variantSettings';
import type { LedgerReader } from '../storage/ledger';

export interface VariantFigures {
	text: string;
	rows: number;
	sent: number;
	delivered: number;
	failed: number;
	replies: number;
	/** Rows whose links a person followed; 0 while links are not tracked (`clicksTracked` false). */
	clicks: number;
	clicksTracked: boolean;
	optOuts: number;
}

export interface VariantsStatus {
	variants: VariantFigures[];
	/** `index` is 1-based, as `--winner N` takes it; null until decided. */
	winner: {
		index: number;
		by: WinnerBy;
		byHand: boolean;
		decidedAt: string;
		rates: (number | null)[];
	} | null;
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

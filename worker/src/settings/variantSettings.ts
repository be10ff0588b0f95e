import { DURATION_EXAMPLES } from '../../../api';
import { SettingError } from '../errors';
import type { CampaignSpec, WinnerBy } from './campaignSpec';

export const WINNER_BY: readonly WinnerBy[] = ['delivered', 'replies', 'clicks', 'optouts'];
/** Five texts in all: more splits a test share too thinly to tell them apart. */
export const MAX_TEXTS = 5;
export const VARIANT_DEFAULTS = {
	testShare: 0.2,
	winnerBy: 'replies' as WinnerBy,
	decideAfter: 7200,
};

/** The texts of a variant campaign, `--text` first (variant 1); undefined for a campaign of one text. */
export function variantTexts(spec: Pick<CampaignSpec, 'text' | 'variants'>): string[] | undefined {
	return spec.variants && spec.variants.length > 0 ? [spec.text, ...spec.variants] : undefined;
}

export function variantSettings(spec: CampaignSpec):
	| {
			texts: string[];
			testShare: number;
			winnerBy: WinnerBy;
			decideAfter: number;
	  }
	| undefined {
	const texts = variantTexts(spec);
	if (!texts) return undefined;
	return {
		texts,
		testShare: spec.testShare ?? VARIANT_DEFAULTS.testShare,
		winnerBy: spec.winnerBy ?? VARIANT_DEFAULTS.winnerBy,
		decideAfter: spec.decideAfter ?? VARIANT_DEFAULTS.decideAfter,
	};
}

/** Each setting of a variant campaign, checked before anything is read. */
export function checkVariantSettings(spec: Partial<CampaignSpec>): void {
	const variants = spec.variants ?? [];
	if (variants.length + 1 > MAX_TEXTS)
		throw new SettingError(
			'variants',
			`gives ${variants.length + 1} texts with --text; at most ${MAX_TEXTS} in all`,
		);
	variants.forEach((v, i) => {
		if (typeof v !== 'string' || v.trim() === '')
			throw new SettingError('variants', `text ${i + 2} is empty: give the message to send`);
	});
	const anyVariantSetting =
		spec.testShare !== undefined || spec.winnerBy !== undefined || spec.decideAfter !== undefined;
	if (anyVariantSetting && variants.length === 0)
		throw new SettingError(
			'variants',
			'is needed by --test-share, --winner-by and --decide-after: give at least one other text to test against --text',
		);
	if (spec.testShare !== undefined && !(spec.testShare > 0 && spec.testShare <= 1))
		throw new SettingError(
			'testShare',
			`must be a fraction of the list above 0 and at most 1, such as 0.2 (got ${spec.testShare})`,
		);
	if (spec.winnerBy !== undefined && !WINNER_BY.includes(spec.winnerBy))
		throw new SettingError(
			'winnerBy',
			`must be one of ${WINNER_BY.join(', ')} (got ${JSON.stringify(spec.winnerBy)})`,
		);
	if (spec.winnerBy === 'clicks' && spec.linkBase === undefined)
		throw new SettingError(
			'winnerBy',
			'clicks needs trackLinks: only tracked links are counted (or judge by replies, delivered or optouts)',
			'--winner-by clicks needs --track-links (with --link-base URL): only tracked links are counted; track them, or judge by replies, delivered or optouts',
		);
	if (spec.decideAfter !== undefined && !(spec.decideAfter >= 0))
		throw new SettingError(
			'decideAfter',
			`must be a duration such as ${DURATION_EXAMPLES} (got ${spec.decideAfter})`,
		);
}

import type { CampaignSpec, WinnerBy } from '../../settings/campaignSpec';
import { durationMs } from '../../../../api';

/** A config or API campaign's variant settings as the engine's spec has them (decideAfter in seconds). */
export function variantSpec(settings: {
	variants?: string[] | null;
	testShare?: number | null;
	winnerBy?: WinnerBy | null;
	decideAfter?: string | null;
}): Pick<CampaignSpec, 'variants' | 'testShare' | 'winnerBy' | 'decideAfter'> {
	const out: Pick<CampaignSpec, 'variants' | 'testShare' | 'winnerBy' | 'decideAfter'> = {};
	if (settings.variants && settings.variants.length > 0) out.variants = settings.variants;
	if (typeof settings.testShare === 'number') out.testShare = settings.testShare;
	if (settings.winnerBy) out.winnerBy = settings.winnerBy;
	if (typeof settings.decideAfter === 'string')
		// A duration the engine cannot read is NaN: it refuses it, naming decideAfter.
		out.decideAfter = (durationMs(settings.decideAfter) ?? NaN) / 1000;
	return out;
}

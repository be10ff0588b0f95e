import { parseExternalId } from '../../../rows/externalId';

const TICK = /^(.+)-(\d{8}T\d{6}Z)$/;

/**
 * A cron tick's run of a campaign: `<campaign>-<tick>`, the tick in UTC to the second. It
 * is the `<campaign>` of each ExternalId `<campaign>:<row>`, so it keeps to the letters,
 * digits, dots, dashes and underscores the engine allows there; the tick's fixed shape
 * tells it apart from dashes in the campaign's own name.
 */
export function runName(campaign: string, tick: Date): string {
	const stamp = tick
		.toISOString()
		.replace(/\.\d{3}Z$/, 'Z')
		.replace(/[-:]/g, '');
	return `${campaign}-${stamp}`;
}

/** The tick a run of a campaign's cron was started for (Unix ms), if `run` is one. */
export function tickOfRun(run: string): number | undefined {
	const stamp = TICK.exec(run)?.[2];
	return stamp
		? Date.parse(
				`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13)}`,
			)
		: undefined;
}

/**
 * The config campaign whose run name this is (`<campaign>-<tick>`), if one of `campaigns`:
 * a campaign of that name made otherwise (the API) would take the tick's run, and the
 * replies to it would be read as the config campaign's.
 */
export function runOfConfigCampaign(
	name: string,
	campaigns: readonly string[],
): string | undefined {
	const campaign = TICK.exec(name)?.[1];
	return campaign !== undefined && campaigns.includes(campaign) ? campaign : undefined;
}

/** The campaign, run and row an ExternalId `<campaign>-<tick>:<row>` names, if it is one of ours. */
export function readExternalId(
	externalId: string,
): { campaign: string; run: string; row: number } | undefined {
	const parsed = parseExternalId(externalId);
	if (!parsed) return undefined;
	return {
		campaign: TICK.exec(parsed.campaign)?.[1] ?? parsed.campaign,
		run: parsed.campaign,
		row: parsed.line,
	};
}

/** The cron runs of config campaign `campaign` among `names`, latest first (their ticks sort as text). */
export function runsOfCampaign(campaign: string, names: readonly string[]): string[] {
	return names
		.filter((n) => TICK.exec(n)?.[1] === campaign)
		.sort()
		.reverse();
}

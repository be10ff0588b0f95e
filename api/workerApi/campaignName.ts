import { problem, type ApiProblem } from './problem';

/**
 * A run's name: the ledger's campaign, and the `<campaign>` of each ExternalId
 * (`<campaign>:<line>`) it sends. The spec sets no length on an ExternalId; 64 is the
 * worker's own bound, so that an id stays short in the provider's records and ours.
 */
export const RUN_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const RUN_NAME_RULE = 'must be 1 to 64 letters, digits, dots, dashes or underscores';

/**
 * A campaign's name, in the config or the API alike (one namespace: an API campaign may not
 * take a cron run's name): its runs are named `<campaign>-YYYYMMDDTHHMMSSZ`, 17 characters
 * more, so 47 leaves each run's name within the 64 of RUN_NAME_PATTERN.
 */
export const CAMPAIGN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,46}$/;
export const CAMPAIGN_NAME_RULE =
	'must be 1 to 47 letters, digits, "_", "." or "-", starting with a letter or digit';

export function isCampaignName(value: unknown): value is string {
	return typeof value === 'string' && CAMPAIGN_NAME_PATTERN.test(value);
}

export function checkCampaignName(value: unknown, field = 'name'): ApiProblem | undefined {
	if (isCampaignName(value)) return undefined;
	return problem(field, `${field} ${CAMPAIGN_NAME_RULE} (got ${JSON.stringify(value)})`);
}

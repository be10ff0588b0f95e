import { problem, type ApiProblem } from './problem';

/**
 * As a config campaign's name: a campaign's runs are named `<campaign>-<tick>` and a name
 * goes into every ExternalId (`<campaign>:<line>`), where 64 such characters are allowed.
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

import { SETTING_FLAG } from '../errors';

/** What the engine's messages and log call an API campaign's recipients (its spec's csvPath): never a file. */
export const RECIPIENTS = "the recipients' CSV";

/**
 * What makes a campaign what it is. Stored with it: a resumed run must send exactly what
 * the first run would have, so these cannot change under the same name.
 */
export interface CampaignSpec {
	name: string;
	csvPath: string;
	propertySid: string;
	text: string;
	from?: string;
	toColumn?: string;
	defaultCountry?: string;
	/** Windows or IANA, as given. */
	timeZone?: string;
	timeZoneColumn?: string;
	/** `HH:MM-HH:MM`. */
	sendWindow?: string;
	/** Unix seconds. */
	schedule?: number;
	delimiter?: string;
	/** `--encoding`: a single-byte code page; omitted, UTF-8 (or UTF-16 with a BOM). */
	encoding?: string;
	/** `--smart-encoding`: typographic characters sent as their GSM-7 equivalents. */
	smartEncoding?: boolean;
	/** `--track-links --link-base URL`: every http(s) URL of a text becomes `{linkBase}/{token}`. */
	linkBase?: string;
	/** `--consent-column`: where each number's consent came from ("web form 2026-03"). */
	consentColumn?: string;
	/** `--consent-at-column`: when it was given (ISO 8601, or a date). */
	consentAtColumn?: string;
	/** `--require-consent`: a row whose number has no consent, in the list or recorded before, is invalid (NO_CONSENT). */
	requireConsent?: boolean;
	/** `--countries`: allowed countries, `AU,NZ` (upper case, sorted); others end invalid. */
	countries?: string;
	/** `--allow-landlines`: fixed-line-only numbers are sent too. */
	allowLandlines?: boolean;
	/** `--variant`: the other texts tried against `text` on a test share of the list (variantPlan.ts). */
	variants?: string[];
	/** The share of the list in the test, 0 to 1; 0.2 when left out. */
	testShare?: number;
	winnerBy?: WinnerBy;
	/** Seconds from the test's last send to the decision; 2 h when left out. */
	decideAfter?: number;
	/**
	 * The run that made it asked for delivery receipts (--receipt-url; config and API
	 * campaigns do): status then awaits them. Not a setting: a later run may differ.
	 */
	receipts?: boolean;
}

/** What makes a variant the winner: the best rate of it among its sent rows (optouts: the fewest). */
export type WinnerBy = 'delivered' | 'replies' | 'clicks' | 'optouts';

export const SPEC_KEYS: readonly (keyof CampaignSpec)[] = [
	'csvPath',
	'propertySid',
	'text',
	'from',
	'toColumn',
	'defaultCountry',
	'timeZone',
	'timeZoneColumn',
	'sendWindow',
	'schedule',
	'delimiter',
	'encoding',
	'smartEncoding',
	'linkBase',
	'consentColumn',
	'consentAtColumn',
	'requireConsent',
	'countries',
	'allowLandlines',
	'variants',
	'testShare',
	'winnerBy',
	'decideAfter',
];

/** The `campaign run` flag that sets each part of a spec. */
export const SPEC_FLAG: Record<keyof CampaignSpec, string> = SETTING_FLAG;

/** The flags given again that differ from the stored campaign; omitted ones are taken from it. */
export function specConflicts(stored: CampaignSpec, given: Partial<CampaignSpec>): string[] {
	const out: string[] = [];
	for (const key of SPEC_KEYS) {
		const v = given[key];
		// Variants are a list: the same texts in the same order are the same campaign.
		if (v !== undefined && JSON.stringify(v) !== JSON.stringify(stored[key]))
			out.push(
				`${SPEC_FLAG[key]} (stored: ${JSON.stringify(stored[key] ?? null)}, given: ${JSON.stringify(v)})`,
			);
	}
	return out;
}

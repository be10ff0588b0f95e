import { campaignRateProblem, MAX_CAMPAIGN_RATE, MAX_PRICE_PER_SEGMENT } from './campaignRate';
import { parseFrequencyCap } from './frequencyCap';
import { isBlank } from '../fields';
import { isSid } from '../sid';
import { senderKind } from '../rules/sender';
import { isWebhookUri } from '../rules/webhook';
import { WEBHOOK_SECRET_PREFIX, webhookSecretKey } from '../webhookSigning';
import { isWindowsTimeZone } from '../rules/timeZone';
import { DURATION_EXAMPLES, durationMs } from './duration';
import { problem, type ApiProblem } from './problem';

/**
 * `PUT /api/campaigns/{name}` body: the settings of `campaign run` (and of a config
 * campaign), with the same meaning. Fixed once given: the same settings again are
 * harmless, other ones a 409 naming the differences.
 */
export interface CampaignSettings {
	/** The Sid of the Property the messages go out on. */
	property: string;
	/** The message, a template over the recipients' fields: `Hi {{first_name}}`. */
	text: string;
	/** An E.164 number or an alphanumeric ID; omitted, a leased number. */
	from?: string;
	/** The recipients' field holding the number; omitted, the first of To, Phone, Mobile (any case). */
	toColumn?: string;
	/** Two letters, for numbers written without their country code. */
	defaultCountry?: string;
	/** IANA or Windows zone of the send window (and of `schedule` shown back). */
	timeZone?: string;
	/** A recipients' field holding each one's zone. */
	timeZoneColumn?: string;
	/** `HH:MM-HH:MM`, local hours messages may go out in; needs `timeZone` or `timeZoneColumn`. */
	sendWindow?: string;
	/** ISO 8601 instant to start sending at; omitted, at start. */
	schedule?: string;
	/** Messages a second; 0 for no limit. */
	rate?: number;
	/** Messages per provider batch request, 1 to 1,000. */
	batchSize?: number;
	/** Typographic characters sent as their GSM-7 equivalents. */
	smartEncoding?: boolean;
	/** Send only to numbers of these countries (two letters each); others end invalid, COUNTRY_NOT_ALLOWED. */
	countries?: string[];
	/** Send to fixed-line-only numbers too (else they end invalid, NOT_MOBILE). */
	allowLandlines?: boolean;
	/** The campaign's spend cap: it pauses before a message would take its cost past this. Needs `pricePerSegment`. */
	maxCost?: number;
	/** The price of one segment, for `maxCost`. */
	pricePerSegment?: number;
	/** Other texts tried against `text` on a share of the list (up to four): the rest goes with the winner. */
	variants?: string[];
	/** The share of the list in the variants' test, above 0 and at most 1 (default 0.2). */
	testShare?: number;
	/** What makes a text the winner: the best rate of delivered, replies or clicks, the fewest optouts (default replies). */
	winnerBy?: 'delivered' | 'replies' | 'clicks' | 'optouts';
	/** How long after the test's last send the winner is chosen: `2h`, `30m`, `90s` (default 2h). */
	decideAfter?: string;
	/** Every http(s) URL of the text becomes a short link per recipient, counted by the worker (its `links.baseUrl`). */
	trackLinks?: boolean;
	/** A recipient whose number has no consent, given (`consent`) or recorded before, ends invalid (NO_CONSENT). */
	requireConsent?: boolean;
	/** Pauses the campaign when more than this share of its latest 200 delivery outcomes failed (default 0.3; 0 never). */
	maxFailureRate?: number;
	/** At most N messages to one number within a period, across campaigns: `1/24h`, `3/7d`; a row past it ends capped. */
	frequencyCap?: string;
	/** Ask for delivery receipts to this worker (default true). */
	receipts?: boolean;
	/** Replies to this worker; only with a leased sender (default true without `from`). */
	replies?: boolean;
	/** This campaign's events URL (campaign.started / finished / paused ...). */
	events?: string;
	/** The `whsec_` secret its events are signed with (Standard Webhooks), instead of the worker's. */
	signingSecret?: string;
}

export type CampaignSettingName = keyof CampaignSettings;

export const CAMPAIGN_SETTING_NAMES: readonly CampaignSettingName[] = [
	'property',
	'text',
	'from',
	'toColumn',
	'defaultCountry',
	'timeZone',
	'timeZoneColumn',
	'sendWindow',
	'schedule',
	'rate',
	'batchSize',
	'smartEncoding',
	'countries',
	'allowLandlines',
	'maxCost',
	'pricePerSegment',
	'variants',
	'testShare',
	'winnerBy',
	'decideAfter',
	'trackLinks',
	'requireConsent',
	'maxFailureRate',
	'frequencyCap',
	'receipts',
	'replies',
	'events',
	'signingSecret',
];

const WINNER_BY = ['delivered', 'replies', 'clicks', 'optouts'];

export const MAX_BATCH_SIZE = 1000;
export const MAX_TEMPLATE_LENGTH = 10_000;

const SEND_WINDOW = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/;
/** A date and time with its offset: an instant, not a local time of some unknown zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function sendWindowProblem(value: string): string | undefined {
	const m = SEND_WINDOW.exec(value);
	if (!m) return 'must look like 09:00-20:00';
	const [h1, m1, h2, m2] = m.slice(1).map(Number);
	if (h1 > 24 || h2 > 24 || m1 > 59 || m2 > 59 || (h1 === 24 && m1 > 0) || (h2 === 24 && m2 > 0))
		return 'has a time of day that does not exist';
	if ((h1 * 60 + m1) % 1440 === (h2 * 60 + m2) % 1440) return 'must have two different ends';
	return undefined;
}

/** An IANA zone the runtime knows, or a Windows ID (what a Property's TimeZone holds). */
export function isTimeZoneName(value: string): boolean {
	if (value.trim() === '') return false;
	if (isWindowsTimeZone(value)) return true;
	try {
		new Intl.DateTimeFormat('en-GB', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a settings body and returns it in its one stored form: blank optional strings
 * dropped, `defaultCountry` upper-cased, `schedule` as `toISOString()`, the defaults of
 * `receipts` and `replies` filled in, so the same meaning written two ways compares equal.
 */
export function checkCampaignSettings(body: unknown): {
	settings?: CampaignSettings;
	problems: ApiProblem[];
} {
	if (!isPlainObject(body))
		return { problems: [problem('body', 'body must be a JSON object of campaign settings')] };
	const problems: ApiProblem[] = [];
	const out: Record<string, unknown> = {};
	const known = new Set<string>(CAMPAIGN_SETTING_NAMES);
	for (const key of Object.keys(body)) {
		if (!known.has(key))
			problems.push(
				problem(
					key,
					`${key} is not a campaign setting (settings: ${CAMPAIGN_SETTING_NAMES.join(', ')})`,
				),
			);
	}
	const str = (key: CampaignSettingName, required: boolean): string | undefined => {
		const v = body[key];
		if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '' && !required)) {
			if (required) problems.push(problem(key, `${key} is required`));
			return undefined;
		}
		if (typeof v !== 'string') {
			problems.push(problem(key, `${key} must be a string`));
			return undefined;
		}
		return v;
	};
	const num = (
		key: CampaignSettingName,
		min: number,
		max: number,
		integer: boolean,
	): number | undefined => {
		const v = body[key];
		if (v === undefined || v === null) return undefined;
		if (
			typeof v !== 'number' ||
			!Number.isFinite(v) ||
			(integer && !Number.isInteger(v)) ||
			v < min ||
			v > max
		) {
			problems.push(
				problem(
					key,
					`${key} must be a ${integer ? 'whole ' : ''}number from ${min} to ${max.toLocaleString('en-US')}`,
				),
			);
			return undefined;
		}
		return v;
	};
	const bool = (key: CampaignSettingName): boolean | undefined => {
		const v = body[key];
		if (v === undefined || v === null) return undefined;
		if (typeof v !== 'boolean') {
			problems.push(problem(key, `${key} must be true or false`));
			return undefined;
		}
		return v;
	};

	const property = str('property', true);
	if (property !== undefined && !isSid(property))
		problems.push(problem('property', 'property must be a Sid (a lower-case UUID)'));
	else if (property !== undefined) out.property = property;
	const text = str('text', true);
	if (text !== undefined && text.trim() === '')
		problems.push(problem('text', 'text must not be blank'));
	else if (text !== undefined && text.length > MAX_TEMPLATE_LENGTH)
		problems.push(
			problem(
				'text',
				`text must be at most ${MAX_TEMPLATE_LENGTH.toLocaleString('en-US')} characters`,
			),
		);
	else if (text !== undefined) out.text = text;
	const from = str('from', false);
	if (from !== undefined && senderKind(from) === undefined)
		problems.push(
			problem(
				'from',
				'from must be an E.164 number, an alphanumeric ID of 1 to 11 characters, or left out for a leased number',
			),
		);
	else if (from !== undefined) out.from = from;
	const toColumn = str('toColumn', false);
	if (toColumn !== undefined) out.toColumn = toColumn;
	const defaultCountry = str('defaultCountry', false);
	if (defaultCountry !== undefined && !/^[A-Za-z]{2}$/.test(defaultCountry))
		problems.push(problem('defaultCountry', 'defaultCountry must be a two-letter country code'));
	else if (defaultCountry !== undefined) out.defaultCountry = defaultCountry.toUpperCase();
	const timeZone = str('timeZone', false);
	if (timeZone !== undefined && !isTimeZoneName(timeZone))
		problems.push(
			problem(
				'timeZone',
				'timeZone must be an IANA time zone (such as "Australia/Sydney") or a Windows time zone ID',
			),
		);
	else if (timeZone !== undefined) out.timeZone = timeZone;
	const timeZoneColumn = str('timeZoneColumn', false);
	if (timeZoneColumn !== undefined) out.timeZoneColumn = timeZoneColumn;
	const sendWindow = str('sendWindow', false);
	const windowProblem = sendWindow === undefined ? undefined : sendWindowProblem(sendWindow);
	if (windowProblem)
		problems.push(problem('sendWindow', `sendWindow ${windowProblem} (got "${sendWindow}")`));
	else if (sendWindow !== undefined) {
		out.sendWindow = sendWindow.replace(/\s+/g, '');
		if (timeZone === undefined && timeZoneColumn === undefined)
			problems.push(
				problem(
					'sendWindow',
					'sendWindow needs the time zone it is in: give timeZone or timeZoneColumn',
				),
			);
	}
	const schedule = str('schedule', false);
	if (schedule !== undefined) {
		const at = ISO_INSTANT.test(schedule.trim()) ? Date.parse(schedule.trim()) : NaN;
		if (Number.isNaN(at))
			problems.push(
				problem(
					'schedule',
					`schedule must be an ISO 8601 date and time with its offset, such as 2026-11-25T09:00:00Z (got "${schedule}")`,
				),
			);
		else out.schedule = new Date(at).toISOString();
	}
	const rate = num('rate', 0, MAX_CAMPAIGN_RATE, false);
	const rateWrong = rate === undefined ? undefined : campaignRateProblem(rate);
	if (rateWrong) problems.push(problem('rate', `rate ${rateWrong} (got ${rate})`));
	else if (rate !== undefined) out.rate = rate;
	const batchSize = num('batchSize', 1, MAX_BATCH_SIZE, true);
	if (batchSize !== undefined) out.batchSize = batchSize;
	const smartEncoding = bool('smartEncoding');
	if (smartEncoding !== undefined) out.smartEncoding = smartEncoding;
	const countries = body.countries;
	if (countries !== undefined && countries !== null) {
		if (
			!Array.isArray(countries) ||
			countries.length === 0 ||
			!countries.every((c) => typeof c === 'string' && /^[A-Za-z]{2}$/.test(c))
		)
			problems.push(
				problem(
					'countries',
					'countries must be a list of two-letter country codes, such as ["AU", "NZ"]',
				),
			);
		else out.countries = [...new Set(countries.map((c: string) => c.toUpperCase()))].sort();
	}
	const allowLandlines = bool('allowLandlines');
	if (allowLandlines !== undefined) out.allowLandlines = allowLandlines;
	const pricePerSegment = num('pricePerSegment', 0, MAX_PRICE_PER_SEGMENT, false);
	if (pricePerSegment !== undefined) out.pricePerSegment = pricePerSegment;
	const maxCost = num('maxCost', 0, Number.MAX_SAFE_INTEGER / 1e6, false);
	if (maxCost !== undefined && pricePerSegment === undefined)
		problems.push(
			problem('maxCost', 'maxCost needs pricePerSegment: the cap counts segments at that price'),
		);
	else if (maxCost !== undefined) out.maxCost = maxCost;
	const variants = body.variants;
	if (variants !== undefined && variants !== null) {
		if (
			!Array.isArray(variants) ||
			variants.length > 4 ||
			variants.some(
				(v) => typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEMPLATE_LENGTH,
			)
		)
			problems.push(
				problem(
					'variants',
					'variants must be a list of up to four texts (five with text), none blank',
				),
			);
		else if (variants.length > 0) out.variants = variants;
	}
	const testShare = num('testShare', 0, 1, false);
	if (testShare === 0) problems.push(problem('testShare', 'testShare must be above 0'));
	else if (testShare !== undefined) out.testShare = testShare;
	const winnerBy = str('winnerBy', false);
	if (winnerBy !== undefined && !WINNER_BY.includes(winnerBy))
		problems.push(problem('winnerBy', `winnerBy must be one of ${WINNER_BY.join(', ')}`));
	else if (winnerBy !== undefined) out.winnerBy = winnerBy;
	const decideAfter = str('decideAfter', false);
	if (decideAfter !== undefined && durationMs(decideAfter) === undefined)
		problems.push(
			problem(
				'decideAfter',
				`decideAfter must be a duration such as ${DURATION_EXAMPLES} (got "${decideAfter}")`,
			),
		);
	else if (decideAfter !== undefined) out.decideAfter = decideAfter.trim();
	if (
		out.variants === undefined &&
		(out.testShare !== undefined || out.winnerBy !== undefined || out.decideAfter !== undefined)
	)
		problems.push(
			problem(
				'variants',
				'testShare, winnerBy and decideAfter need variants: other texts to test against text',
			),
		);
	const trackLinks = bool('trackLinks');
	if (trackLinks !== undefined) out.trackLinks = trackLinks;
	const requireConsent = bool('requireConsent');
	if (requireConsent !== undefined) out.requireConsent = requireConsent;
	const maxFailureRate = num('maxFailureRate', 0, 1, false);
	if (maxFailureRate !== undefined) out.maxFailureRate = maxFailureRate;
	const frequencyCap = str('frequencyCap', false);
	const capped = frequencyCap === undefined ? undefined : parseFrequencyCap(frequencyCap);
	if (typeof capped === 'string') problems.push(problem('frequencyCap', `frequencyCap ${capped}`));
	else if (capped !== undefined) out.frequencyCap = frequencyCap!.replace(/\s+/g, '');
	out.receipts = bool('receipts') ?? true;
	const leased = isBlank(from);
	const replies = bool('replies');
	if (replies === true && !leased)
		problems.push(
			problem(
				'replies',
				'replies come only to a leased sender: leave out from, or set replies to false',
			),
		);
	out.replies = replies ?? leased;
	const events = str('events', false);
	if (events !== undefined && !isWebhookUri(events))
		problems.push(problem('events', 'events must be an absolute http or https URL'));
	else if (events !== undefined) out.events = events;
	const signingSecret = str('signingSecret', false);
	if (
		signingSecret !== undefined &&
		(!signingSecret.startsWith(WEBHOOK_SECRET_PREFIX) ||
			webhookSecretKey(signingSecret) === undefined)
	)
		problems.push(
			problem(
				'signingSecret',
				'signingSecret must be whsec_ then a base64 key of at least 16 bytes (cloudtel secret new makes one)',
			),
		);
	else if (signingSecret !== undefined) out.signingSecret = signingSecret;
	if (problems.length > 0) return { problems };
	return { settings: out as unknown as CampaignSettings, problems };
}

/** One setting stored and given differently: the detail of a 409 `conflict`. */
export interface SettingDifference {
	setting: CampaignSettingName;
	stored: unknown;
	given: unknown;
}

/** The settings that differ, both in their stored form (see checkCampaignSettings); null where one has none. */
export function settingDifferences(
	stored: CampaignSettings,
	given: CampaignSettings,
): SettingDifference[] {
	const out: SettingDifference[] = [];
	for (const key of CAMPAIGN_SETTING_NAMES) {
		const a = stored[key];
		const b = given[key];
		if (JSON.stringify(a) !== JSON.stringify(b))
			out.push(
				key === 'signingSecret'
					? { setting: key, stored: masked(a), given: masked(b) }
					: { setting: key, stored: a ?? null, given: b ?? null },
			);
	}
	return out;
}

/** What an answer shows of a signing secret: that there is one, never the key. */
export const MASKED_SIGNING_SECRET = `${WEBHOOK_SECRET_PREFIX}********`;

function masked(secret: unknown): string | null {
	return secret === undefined || secret === null ? null : MASKED_SIGNING_SECRET;
}

/** The settings as an answer shows them: the signing secret masked. */
export function shownSettings(settings: CampaignSettings): CampaignSettings {
	return settings.signingSecret === undefined
		? settings
		: { ...settings, signingSecret: MASKED_SIGNING_SECRET };
}

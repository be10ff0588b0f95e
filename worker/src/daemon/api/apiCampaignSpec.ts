import { isBlank, type CampaignSettings } from '../../../../api';
import { SettingError, type Setting } from '../../errors';
import { RECIPIENTS, type CampaignSpec } from '../../settings/campaignSpec';
import { variantSpec } from '../campaigns/variantSpec';
import { CONSENT_AT_COLUMN, CONSENT_SOURCE_COLUMN, consentInCsv } from './recipientColumns';

/**
 * The engine's spec of an API campaign: the ledger campaign has the API campaign's name;
 * its rows come from the pages (recipientRows.ts), which `csvPath` only names.
 * `columns`: the pages' columns, whose `consent` the rows carry as two columns.
 */
export function apiCampaignSpec(
	name: string,
	settings: CampaignSettings,
	source: 'pages' | 'csv',
	/** The worker config's `links.baseUrl`, for `trackLinks`. */
	linkBase?: string,
	columns: readonly string[] = [],
): CampaignSpec {
	if (settings.trackLinks && linkBase === undefined)
		throw new SettingError(
			'linkBase',
			"needs the worker config's links.baseUrl: the address tracked links point at",
		);
	const consent = source === 'pages' && consentInCsv(columns, settings.requireConsent);
	return {
		name,
		csvPath: RECIPIENTS,
		propertySid: settings.property,
		text: settings.text,
		from: isBlank(settings.from) ? undefined : settings.from,
		toColumn: settings.toColumn,
		defaultCountry: settings.defaultCountry,
		timeZone: settings.timeZone,
		timeZoneColumn: settings.timeZoneColumn,
		sendWindow: settings.sendWindow,
		schedule:
			settings.schedule === undefined
				? undefined
				: Math.floor(Date.parse(settings.schedule) / 1000),
		smartEncoding: settings.smartEncoding || undefined,
		countries: settings.countries?.join(','),
		allowLandlines: settings.allowLandlines || undefined,
		...variantSpec(settings),
		linkBase: settings.trackLinks ? linkBase : undefined,
		consentColumn: consent ? CONSENT_SOURCE_COLUMN : undefined,
		consentAtColumn: consent ? CONSENT_AT_COLUMN : undefined,
		requireConsent: settings.requireConsent || undefined,
		// As the run asks for them (runCallbacks.ts): stored from the start, so its report awaits them.
		receipts: settings.receipts !== false || undefined,
	};
}

/** The API's name for a setting the engine blames. */
export const API_SETTING: Partial<Record<Setting, string>> = {
	csvPath: 'recipients',
	propertySid: 'property',
	text: 'text',
	from: 'from',
	toColumn: 'toColumn',
	defaultCountry: 'defaultCountry',
	timeZone: 'timeZone',
	timeZoneColumn: 'timeZoneColumn',
	sendWindow: 'sendWindow',
	schedule: 'schedule',
	rate: 'rate',
	batchSize: 'batchSize',
	replyUrl: 'replies',
	smartEncoding: 'smartEncoding',
	countries: 'countries',
	allowLandlines: 'allowLandlines',
	maxCost: 'maxCost',
	variants: 'variants',
	testShare: 'testShare',
	winnerBy: 'winnerBy',
	decideAfter: 'decideAfter',
	winner: 'winner',
	linkBase: 'trackLinks',
	requireConsent: 'requireConsent',
	maxFailureRate: 'maxFailureRate',
	frequencyCap: 'frequencyCap',
};

import { isBlank, type CampaignSettings } from '../../../../api';
import { RUN_DEFAULTS, type Setting } from '../../errors';
import type { CampaignSpec } from '../../settings/campaignSpec';

/** The engine's spec of an API campaign: the ledger campaign has the API campaign's name. */
export function apiCampaignSpec(
	name: string,
	settings: CampaignSettings,
	csvPath: string,
	source: 'pages' | 'csv',
): CampaignSpec {
	return {
		name,
		csvPath,
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
		// The CSV made from pages is comma-separated, its header quoted: nothing to sniff.
		delimiter: source === 'pages' ? ',' : undefined,
		smartEncoding: settings.smartEncoding || undefined,
		countries: settings.countries?.join(','),
		allowLandlines: settings.allowLandlines || undefined,
	};
}

export function apiCampaignPace(settings: CampaignSettings): {
	rate: number;
	batchSize: number;
	maxCost?: number;
	pricePerSegment?: number;
	maxFailureRate?: number;
} {
	return {
		rate: settings.rate ?? RUN_DEFAULTS.rate,
		batchSize: settings.batchSize ?? RUN_DEFAULTS.batchSize,
		maxCost: settings.maxCost,
		pricePerSegment: settings.pricePerSegment,
		maxFailureRate: settings.maxFailureRate,
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
	maxFailureRate: 'maxFailureRate',
};

import type { CampaignSpec } from '../../settings/campaignSpec';
import type { CampaignConfig } from '../../config/workerConfigSchema';

/** The engine's spec of one run of a configured campaign, named `<campaign>-<tick>`; `linkBase` is the config's `links.baseUrl`. */
export function configuredSpec(
	campaign: CampaignConfig,
	run: string,
	linkBase?: string,
): CampaignSpec {
	return {
		name: run,
		csvPath: campaign.csv,
		propertySid: campaign.property,
		text: campaign.text,
		from: campaign.from,
		toColumn: campaign.toColumn,
		defaultCountry: campaign.defaultCountry?.toUpperCase(),
		timeZone: campaign.timeZone,
		timeZoneColumn: campaign.timeZoneColumn,
		sendWindow: campaign.sendWindow,
		encoding: campaign.encoding,
		smartEncoding: campaign.smartEncoding || undefined,
		linkBase: campaign.trackLinks ? linkBase : undefined,
	};
}

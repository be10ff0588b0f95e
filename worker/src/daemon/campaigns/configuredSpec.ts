import type { CampaignSpec } from '../../settings/campaignSpec';
import type { CampaignConfig } from '../../config/workerConfigSchema';
import { parseCountries } from '../../rows/numberGuard';
import { variantSpec } from './variantSpec';

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
		countries: campaign.countries && parseCountries(campaign.countries),
		allowLandlines: campaign.allowLandlines || undefined,
		...variantSpec(campaign),
		linkBase: campaign.trackLinks ? linkBase : undefined,
	};
}

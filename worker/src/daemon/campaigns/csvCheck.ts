import { columnProblems } from '../../campaign/csvColumns';
import { FatalError, SettingError, type Setting } from '../../errors';
import { configPath } from '../../config/configPath';
import type { CampaignConfig } from '../../config/workerConfigSchema';
import { openCsv } from '../../csv/openCsv';
import { configuredSpec } from './configuredSpec';

/** The config's name for each spec setting the CSV check can blame. */
const CONFIG_KEY: Partial<Record<Setting, keyof CampaignConfig>> = {
	csvPath: 'csv',
	propertySid: 'property',
	replyUrl: 'replies',
	toColumn: 'toColumn',
	timeZoneColumn: 'timeZoneColumn',
	text: 'text',
};

/**
 * An engine error about a configured campaign, by the config path of the setting at
 * fault (`campaigns[1].text: ...`), never by the CLI flag the engine's own message names.
 */
export function configProblem(error: unknown, index: number): string | undefined {
	if (error instanceof SettingError)
		return `${configPath(['campaigns', index, CONFIG_KEY[error.setting] ?? error.setting])}: ${error.detail}`;
	return undefined;
}

/**
 * Opens the campaign's CSV and reads its header only: is it there, readable, with the
 * to-column, the time-zone column and every column the template names? What a tick
 * would find out when it is too late, found out at start and before each tick.
 */
export async function checkCampaignCsv(campaign: CampaignConfig, index: number): Promise<string[]> {
	const spec = configuredSpec(campaign, campaign.name);
	let csv;
	try {
		csv = await openCsv(spec.csvPath, { encoding: spec.encoding });
	} catch (error) {
		if (error instanceof FatalError)
			return [`${configPath(['campaigns', index, 'csv'])}: ${error.message}`];
		throw error;
	}
	try {
		return columnProblems(csv.header, spec).map((e) => configProblem(e, index)!);
	} finally {
		csv.close();
	}
}

/** Every campaign's CSV problems, by config path. */
export async function checkCampaignCsvs(campaigns: readonly CampaignConfig[]): Promise<string[]> {
	return (await Promise.all(campaigns.map((c, i) => checkCampaignCsv(c, i)))).flat();
}

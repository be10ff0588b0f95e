import { SETTING_DISPLAY_NAMES } from '../actions/common/settingsFields';

/** The worker's command-line flags, as the Campaign node's fields are named. */
const FLAGS: Record<string, string> = {
	'--default-country': SETTING_DISPLAY_NAMES.defaultCountry,
	'--to-column': SETTING_DISPLAY_NAMES.toColumn,
	'--time-zone-column': SETTING_DISPLAY_NAMES.timeZoneColumn,
	'--time-zone': SETTING_DISPLAY_NAMES.timeZone,
	'--smart-encoding': SETTING_DISPLAY_NAMES.smartEncoding,
	'--send-window': SETTING_DISPLAY_NAMES.sendWindow,
	'--text': SETTING_DISPLAY_NAMES.text,
	'--from': SETTING_DISPLAY_NAMES.from,
};

const FLAG =
	/--(?:default-country|to-column|time-zone-column|time-zone|smart-encoding|send-window|text|from)\b/g;

/**
 * A worker's message in the words of the node it reaches: the worker shares its checks with
 * its command line, whose words (flags, the CSV and its columns) mean nothing in n8n, where
 * the recipients are items and their columns the items' fields.
 */
export function n8nWording(message: string): string {
	return message
		.replace(FLAG, (flag) => FLAGS[flag] ?? flag)
		.replace(/\bthe CSV has no such column\b/g, 'the recipients have no such field')
		.replace(/\bthe recipients have no column named\b/g, 'the recipients have no field named')
		.replace(/\bis not a column of the recipients\b/g, 'is not a field of the recipients')
		.replace(/\(columns: /g, '(fields: ');
}

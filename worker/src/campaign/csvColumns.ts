import type { CampaignSpec } from '../settings/campaignSpec';
import { SettingError } from '../errors';
import { columnIndex, toColumnIndex } from '../../../api';
import { compileTemplate, TemplateError } from '../rows/template';

export interface ColumnMap {
	toIndex: number;
	/** The column the numbers were taken from when --to-column was not given. */
	guessed?: string;
	timeZoneIndex?: number;
}

/** The rule is api/'s (Send Batch finds an item's number by it too); `cloudtel --help` promises its names. */
export { toColumnIndex };

/** Maps the header to what the campaign needs, or stops before any row is read. */
export function mapColumns(header: string[], spec: CampaignSpec): ColumnMap {
	const { map, problems } = readColumns(header, spec);
	if (problems.length > 0) throw problems[0];
	return map;
}

/** Every way the header does not fit the campaign, so a config check can list them all. */
export function columnProblems(header: string[], spec: CampaignSpec): SettingError[] {
	return readColumns(header, spec).problems;
}

function readColumns(
	header: string[],
	spec: CampaignSpec,
): { map: ColumnMap; problems: SettingError[] } {
	const list = header.join(', ');
	const problems: SettingError[] = [];
	let toIndex: number;
	let guessed: string | undefined;
	if (spec.toColumn !== undefined) {
		toIndex = toColumnIndex(header, spec.toColumn);
		if (toIndex < 0)
			problems.push(
				new SettingError(
					'toColumn',
					`${spec.toColumn} is not a column of ${spec.csvPath} (columns: ${list})`,
					`--to-column ${spec.toColumn} is not a column of ${spec.csvPath} (columns: ${list})`,
				),
			);
	} else {
		toIndex = toColumnIndex(header, undefined);
		if (toIndex >= 0) guessed = header[toIndex];
		if (toIndex < 0)
			problems.push(
				new SettingError(
					'toColumn',
					`${spec.csvPath} has no column named To, Phone or Mobile: say which one holds the numbers (columns: ${list})`,
					`${spec.csvPath} has no column named To, Phone or Mobile: say which one holds the numbers with --to-column (columns: ${list})`,
				),
			);
	}
	let timeZoneIndex: number | undefined;
	if (spec.timeZoneColumn !== undefined) {
		timeZoneIndex = columnIndex(header, spec.timeZoneColumn);
		if (timeZoneIndex < 0)
			problems.push(
				new SettingError(
					'timeZoneColumn',
					`${spec.timeZoneColumn} is not a column of ${spec.csvPath} (columns: ${list})`,
					`--time-zone-column ${spec.timeZoneColumn} is not a column of ${spec.csvPath} (columns: ${list})`,
				),
			);
	}
	for (const key of ['consentColumn', 'consentAtColumn'] as const) {
		const column = spec[key];
		if (column !== undefined && columnIndex(header, column) < 0)
			problems.push(
				new SettingError(key, `${column} is not a column of ${spec.csvPath} (columns: ${list})`),
			);
	}
	if (spec.requireConsent && spec.consentColumn === undefined)
		problems.push(
			new SettingError(
				'requireConsent',
				'needs --consent-column, the column that says where each number consented',
			),
		);
	try {
		compileTemplate(spec.text, header);
	} catch (error) {
		if (!(error instanceof TemplateError)) throw error;
		problems.push(new SettingError('text', error.message));
	}
	return { map: { toIndex, guessed, timeZoneIndex }, problems };
}

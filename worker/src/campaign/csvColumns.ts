import type { CampaignSpec } from './campaignSpec';
import { FatalError } from './fatalError';
import { columnIndex, compileTemplate, MissingColumnsError } from '../rows/template';

/** Header names people give the recipient's number, tried in order when --to-column is not given. */
const TO_COLUMN_GUESSES = ['To', 'Phone', 'Mobile', 'MobileNumber', 'Mobile Number', 'PhoneNumber', 'Phone Number', 'Number', 'Msisdn', 'Cell'];

export interface ColumnMap {
	toIndex: number;
	timeZoneIndex?: number;
}

/** Maps the header to what the campaign needs, or stops before any row is read. */
export function mapColumns(header: string[], spec: CampaignSpec): ColumnMap {
	const list = header.join(', ');
	let toIndex: number;
	if (spec.toColumn !== undefined) {
		toIndex = columnIndex(header, spec.toColumn);
		if (toIndex < 0) throw new FatalError(`--to-column ${spec.toColumn} is not a column of ${spec.csvPath} (columns: ${list})`);
	} else {
		toIndex = TO_COLUMN_GUESSES.map((g) => columnIndex(header, g)).find((i) => i >= 0) ?? -1;
		if (toIndex < 0) throw new FatalError(`${spec.csvPath} has no column named To, Phone or Mobile: say which one holds the numbers with --to-column (columns: ${list})`);
	}
	let timeZoneIndex: number | undefined;
	if (spec.timeZoneColumn !== undefined) {
		timeZoneIndex = columnIndex(header, spec.timeZoneColumn);
		if (timeZoneIndex < 0) throw new FatalError(`--time-zone-column ${spec.timeZoneColumn} is not a column of ${spec.csvPath} (columns: ${list})`);
	}
	try {
		compileTemplate(spec.text, header);
	} catch (error) {
		if (error instanceof MissingColumnsError) throw new FatalError(`--text: ${error.message}`);
		throw error;
	}
	return { toIndex, timeZoneIndex };
}

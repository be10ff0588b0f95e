import type { CampaignSpec } from './campaignSpec';
import { UsageError } from './fatalError';
import { columnIndex, compileTemplate, TemplateError } from '../rows/template';

/** Tried in order when --to-column is not given: exactly the names `cloudtel --help` promises. */
const TO_COLUMN_GUESSES = ['To', 'Phone', 'Mobile'];

export interface ColumnMap {
	toIndex: number;
	/** The column the numbers were taken from when --to-column was not given. */
	guessed?: string;
	timeZoneIndex?: number;
}

/** Maps the header to what the campaign needs, or stops before any row is read. */
export function mapColumns(header: string[], spec: CampaignSpec): ColumnMap {
	const list = header.join(', ');
	let toIndex: number;
	let guessed: string | undefined;
	if (spec.toColumn !== undefined) {
		toIndex = columnIndex(header, spec.toColumn);
		if (toIndex < 0) throw new UsageError(`--to-column ${spec.toColumn} is not a column of ${spec.csvPath} (columns: ${list})`);
	} else {
		toIndex = TO_COLUMN_GUESSES.map((g) => columnIndex(header, g)).find((i) => i >= 0) ?? -1;
		if (toIndex >= 0) guessed = header[toIndex];
		if (toIndex < 0) throw new UsageError(`${spec.csvPath} has no column named To, Phone or Mobile: say which one holds the numbers with --to-column (columns: ${list})`);
	}
	let timeZoneIndex: number | undefined;
	if (spec.timeZoneColumn !== undefined) {
		timeZoneIndex = columnIndex(header, spec.timeZoneColumn);
		if (timeZoneIndex < 0) throw new UsageError(`--time-zone-column ${spec.timeZoneColumn} is not a column of ${spec.csvPath} (columns: ${list})`);
	}
	try {
		compileTemplate(spec.text, header);
	} catch (error) {
		if (error instanceof TemplateError) throw new UsageError(`--text: ${error.message}`);
		throw error;
	}
	return { toIndex, guessed, timeZoneIndex };
}

import { columnIndex, toColumnIndex } from '../../../../../api';
import { openCsv, type CsvSource } from '../../../csv/openCsv';
import { isCsvError } from '../../../csv/csvItem';
import { PhoneNormalizer } from '../../../rows/phoneNormalizer';
import type { CampaignSpec } from '../../../settings/campaignSpec';

/** Columns that hold a person's name, the one a greeting uses first. */
const NAME_COLUMNS = [
	'first_name',
	'firstname',
	'first name',
	'given_name',
	'name',
	'full_name',
	'fullname',
	'full name',
	'last_name',
];

/** The name column of a header: one the text greets with ({{first_name}}), else the first of NAME_COLUMNS. */
export function nameColumn(header: readonly string[], text: string): number {
	const used = [...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) => m[1].toLowerCase());
	const named = NAME_COLUMNS.filter((n) => used.includes(n));
	for (const name of [...named, ...NAME_COLUMNS]) {
		const i = columnIndex(header, name);
		if (i >= 0) return i;
	}
	return -1;
}

/**
 * The name on the CSV row a reply answers, for the e-mail it is forwarded as. Read from the
 * campaign's CSV at that line (or from `rows`, an API campaign's pages), and only when that
 * line still holds the replying number: a list replaced since the run must not put another
 * person's name on the reply. Undefined when there is no name column, no readable file,
 * or the line has moved.
 */
export async function rowName(
	spec: CampaignSpec,
	line: number,
	from: string,
	rows?: () => Promise<CsvSource>,
): Promise<string | undefined> {
	let csv;
	try {
		csv = rows
			? await rows()
			: await openCsv(spec.csvPath, { delimiter: spec.delimiter, encoding: spec.encoding });
	} catch {
		return undefined;
	}
	try {
		const name = nameColumn(csv.header, spec.text);
		const to = toColumnIndex(csv.header, spec.toColumn);
		if (name < 0 || to < 0) return undefined;
		const phones = new PhoneNormalizer(spec.defaultCountry);
		for await (const batch of csv.batches)
			for (const item of batch.items) {
				if (item.line < line) continue;
				if (item.line > line || isCsvError(item)) return undefined;
				const number = phones.normalize(item.fields[to] ?? '');
				const value = (item.fields[name] ?? '').trim();
				return 'e164' in number && number.e164 === from && value !== '' ? value : undefined;
			}
		return undefined;
	} catch {
		return undefined;
	} finally {
		csv.close();
	}
}

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
	RECIPIENT_CONSENT_KEY,
	recipientCell,
	recipientConsent,
	type Recipient,
} from '../../../../api';
import type { ApiCampaignStore } from '../../storage/apiCampaignStore';
import { PRIVATE_MODE } from '../../storage/privateFile';

/** Pages read from the database at a time: up to 10,000 recipients each. */
const PAGES_AT_ONCE = 4;

/** Every field quoted: a value with the delimiter, a quote or a line break reads back as it was. */
function csvField(value: string): string {
	return `"${value.replace(/"/g, '""')}"`;
}

/** The CSV's columns a recipient's `consent` becomes: the engine reads them as `--consent-column` and `--consent-at-column`. */
export const CONSENT_SOURCE_COLUMN = 'consent.source';
export const CONSENT_AT_COLUMN = 'consent.at';

/** Whether the CSV of these pages carries consent columns: when a recipient gave one, or the campaign requires it. */
export function consentInCsv(
	columns: readonly string[],
	requireConsent: boolean | undefined,
): boolean {
	return requireConsent === true || columns.includes(RECIPIENT_CONSENT_KEY);
}

/** The header of the CSV made from pages of these columns. */
export function csvHeader(columns: readonly string[], consent: boolean): string[] {
	const plain = columns.filter((c) => c !== RECIPIENT_CONSENT_KEY);
	return consent ? [...plain, CONSENT_SOURCE_COLUMN, CONSENT_AT_COLUMN] : plain;
}

/** Every page's columns, in the order they first appear (page order, then key order). */
export function unionColumns(pages: string[][]): string[] {
	const seen = new Set<string>();
	for (const columns of pages) for (const c of columns) seen.add(c);
	return [...seen];
}

/**
 * Writes the campaign's recipients as the CSV the engine reads: from JSON pages, a header
 * of every column and one line per recipient in page order; from an uploaded CSV, its own
 * bytes. The same pages always give the same bytes, so a resume (on this worker or
 * another) finds the file it imported from. Written aside and renamed: never half a file.
 */
export async function materializeCsv(
	store: ApiCampaignStore,
	name: string,
	source: 'pages' | 'csv',
	path: string,
	requireConsent?: boolean,
): Promise<{ columns?: string[]; lineBreaks: boolean }> {
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${randomUUID()}.part`;
	const file = await open(temp, 'w', PRIVATE_MODE);
	let columns: string[] | undefined;
	// Whether a value spans lines: then a CSV line is no longer a recipient's position.
	let lineBreaks = false;
	try {
		let consent = false;
		if (source === 'pages') {
			const union = unionColumns(await store.pageColumns(name));
			consent = consentInCsv(union, requireConsent);
			columns = csvHeader(union, consent);
		}
		if (columns) await file.write(columns.map(csvField).join(',') + '\n');
		let after = 0;
		for (;;) {
			const pages = await store.pagesAfter(name, after, PAGES_AT_ONCE);
			if (pages.length === 0) break;
			for (const p of pages) {
				if (columns) {
					const cols = columns;
					// Own keys only: a recipient without a column reads as an empty cell, never as a member every object has.
					const rows = (JSON.parse(p.body) as Recipient[]).map((r) => {
						const given = consent ? recipientConsent(r) : undefined;
						return (
							cols
								.map((c) =>
									csvField(
										c === CONSENT_SOURCE_COLUMN
											? (given?.source ?? '')
											: c === CONSENT_AT_COLUMN
												? (given?.at ?? '')
												: recipientCell(
														Object.prototype.hasOwnProperty.call(r, c) ? r[c] : undefined,
													),
									),
								)
								.join(',') + '\n'
						);
					});
					const text = rows.join('');
					lineBreaks ||= text.length - rows.length !== text.replace(/[\r\n]/g, '').length;
					await file.write(text);
				} else await file.write(Buffer.from(p.body, 'base64'));
				after = p.page;
			}
		}
		await file.sync();
		await file.close();
		await rename(temp, path);
	} catch (error) {
		await file.close().catch(() => undefined);
		await rm(temp, { force: true });
		throw error;
	}
	return { columns, lineBreaks };
}

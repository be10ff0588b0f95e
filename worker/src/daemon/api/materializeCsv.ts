import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { recipientCell, type Recipient } from '../../../../api';
import type { ApiCampaignStore } from '../../storage/apiCampaignStore';
import { PRIVATE_MODE } from '../../storage/privateFile';

/** Pages read from the database at a time: up to 10,000 recipients each. */
const PAGES_AT_ONCE = 4;

/** Every field quoted: a value with the delimiter, a quote or a line break reads back as it was. */
function csvField(value: string): string {
	return `"${value.replace(/"/g, '""')}"`;
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
): Promise<{ columns?: string[]; lineBreaks: boolean }> {
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temp = `${path}.${randomUUID()}.part`;
	const file = await open(temp, 'w', PRIVATE_MODE);
	let columns: string[] | undefined;
	// Whether a value spans lines: then a CSV line is no longer a recipient's position.
	let lineBreaks = false;
	try {
		if (source === 'pages') columns = unionColumns(await store.pageColumns(name));
		if (columns) await file.write(columns.map(csvField).join(',') + '\n');
		let after = 0;
		for (;;) {
			const pages = await store.pagesAfter(name, after, PAGES_AT_ONCE);
			if (pages.length === 0) break;
			for (const p of pages) {
				if (columns) {
					const cols = columns;
					// Own keys only: a recipient without a column reads as an empty cell, never as a member every object has.
					const rows = (JSON.parse(p.body) as Recipient[]).map(
						(r) =>
							cols
								.map((c) =>
									csvField(
										recipientCell(Object.prototype.hasOwnProperty.call(r, c) ? r[c] : undefined),
									),
								)
								.join(',') + '\n',
					);
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

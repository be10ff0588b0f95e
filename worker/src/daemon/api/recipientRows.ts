import { Readable } from 'node:stream';
import { recipientCell, recipientConsent, type Recipient } from '../../../../api';
import { openCsvStream, type CsvSource } from '../../csv/openCsv';
import { rowSource, type RowChunk } from '../../csv/rowSource';
import { RECIPIENTS } from '../../settings/campaignSpec';
import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';
import { CSV_PIECE_BYTES } from './csvUpload';
import {
	CONSENT_AT_COLUMN,
	CONSENT_SOURCE_COLUMN,
	consentInCsv,
	csvHeader,
	unionColumns,
} from './recipientColumns';

/** Pages read from the database at a time: up to 10,000 recipients each, or 1 MB of an uploaded CSV. */
const PAGES_AT_ONCE = 4;

/**
 * An API campaign's recipients as the engine reads them, straight from its stored pages a
 * few at a time: JSON pages as rows of every column (page order, then each page's order),
 * an uploaded CSV's pieces as its bytes through the CSV reader. Nothing is written.
 */
export function recipientRows(
	store: ApiCampaignStore,
	record: ApiCampaignRecord,
): () => Promise<CsvSource> {
	return () => (record.source === 'csv' ? uploadedCsv(store, record) : jsonPages(store, record));
}

/** The rows of the API campaign of this name while it keeps its pages; undefined for another name (a config run's). */
export function campaignRows(
	store: ApiCampaignStore,
): (name: string) => Promise<(() => Promise<CsvSource>) | undefined> {
	return async (name) => {
		const record = await store.campaign(name);
		return record ? recipientRows(store, record) : undefined;
	};
}

async function jsonPages(store: ApiCampaignStore, record: ApiCampaignRecord): Promise<CsvSource> {
	const name = record.name;
	const union = unionColumns(await store.pageColumns(name));
	const consent = consentInCsv(union, record.settings.requireConsent);
	const columns = csvHeader(union, consent);
	// The JSON's bytes stand for a file's, for progress and the choice of validator threads: the first pages tell their size.
	const first = await store.pagesAfter(name, 0, PAGES_AT_ONCE);
	const { pages } = await store.pageTotals(name);
	const firstBytes = first.reduce((n, p) => n + p.body.length, 0);
	const size = first.length > 0 ? Math.round((firstBytes * pages.length) / first.length) : 0;
	async function* chunks(): AsyncGenerator<RowChunk> {
		let bytes = 0;
		for await (const page of pagesOf(store, name, first)) {
			const given = JSON.parse(page.body) as Recipient[];
			bytes += page.body.length;
			yield { rows: given.map((r) => rowOf(r, columns, consent)), bytes };
		}
	}
	return rowSource(RECIPIENTS, columns, chunks(), size);
}

/** A recipient's cells; own keys only: a recipient without a column has an empty cell, never a member every object has. */
function rowOf(r: Recipient, columns: readonly string[], consent: boolean): string[] {
	const given = consent ? recipientConsent(r) : undefined;
	return columns.map((c) =>
		c === CONSENT_SOURCE_COLUMN && consent
			? (given?.source ?? '')
			: c === CONSENT_AT_COLUMN && consent
				? (given?.at ?? '')
				: recipientCell(Object.prototype.hasOwnProperty.call(r, c) ? r[c] : undefined),
	);
}

async function uploadedCsv(store: ApiCampaignStore, record: ApiCampaignRecord): Promise<CsvSource> {
	const { pages } = await store.pageTotals(record.name);
	async function* bytes(): AsyncGenerator<Buffer> {
		for await (const piece of pagesOf(store, record.name)) yield Buffer.from(piece.body, 'base64');
	}
	// One piece at a time through the stream: the reader asks for the next when it needs it.
	const stream = Readable.from(bytes(), { objectMode: true, highWaterMark: 1 });
	return openCsvStream(stream, RECIPIENTS, {}, pages.length * CSV_PIECE_BYTES);
}

/** The campaign's pages in order, a few from the database at a time; `first`, those read already. */
async function* pagesOf(
	store: ApiCampaignStore,
	name: string,
	first?: { page: number; body: string }[],
): AsyncGenerator<{ page: number; body: string }> {
	let pages = first ?? (await store.pagesAfter(name, 0, PAGES_AT_ONCE));
	while (pages.length > 0) {
		yield* pages;
		pages = await store.pagesAfter(name, pages[pages.length - 1].page, PAGES_AT_ONCE);
	}
}

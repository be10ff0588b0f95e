import type { ApiCampaignRecord, ApiCampaignStore } from '../../storage/apiCampaignStore';
import type { Ledger } from '../../storage/ledger';
import { toColumnIndex } from '../../campaign/csvColumns';
import { unionColumns } from './recipientColumns';
import { blankCsvLines, blankRecipients, numberFinder } from './numberBlanking';

/** What `contact forget` erased in the API campaigns not ended. */
export interface ApiForgetResult {
	/** Recipients (lines of an uploaded CSV) blanked in the stored pages. */
	recipients: number;
	/** Other recipients whose values named the number: those values blanked, the recipients kept. */
	mentions: number;
	campaigns: string[];
	/** Those whose import was under way or about to begin: what it reads next is blank, but a row it read before may still come. */
	importing: string[];
}

/** The states whose pages are kept (a campaign that ended has dropped them). */
const KEEPING_PAGES = ['draft', 'started'] as const;
const PAGES_AT_ONCE = 4;

/**
 * Erases a number from the API campaigns that keep their pages, for `contact forget`
 * (the ledger's rows are erased by Ledger.forgetContact). Each recipient holding it is
 * blanked in place, all its values, so the line stays and its row is invalid (no number):
 * a run or a resume in progress sees the same lines, the later ones where they were. A
 * page keeps its hash: given again as first given, it is still `unchanged`. The pages are
 * the only copy: a run reads its rows from them (recipientRows.ts), never from a file.
 */
export async function forgetInApiCampaigns(
	store: ApiCampaignStore,
	ledger: Ledger,
	e164: string,
): Promise<ApiForgetResult> {
	const result: ApiForgetResult = { recipients: 0, mentions: 0, campaigns: [], importing: [] };
	for (const record of await store.campaignsIn(KEEPING_PAGES)) {
		const holds = numberFinder(e164, record.settings.defaultCountry);
		const { blanked, mentions } =
			record.source === 'csv'
				? { blanked: await blankCsvPieces(store, record.name, holds), mentions: 0 }
				: await blankPages(store, record, holds);
		if (blanked + mentions === 0) continue;
		result.recipients += blanked;
		result.mentions += mentions;
		result.campaigns.push(record.name);
		// Importing, or about to (a worker may have read a page just before it was blanked).
		const phase = (await ledger.campaign(record.name))?.phase;
		if (phase === 'importing' || (phase === undefined && record.state === 'started'))
			result.importing.push(record.name);
	}
	return result;
}

async function blankPages(
	store: ApiCampaignStore,
	record: ApiCampaignRecord,
	holds: (text: string) => boolean,
): Promise<{ blanked: number; mentions: number }> {
	const name = record.name;
	// The column the engine sends to, as it picks it from the header the pages make.
	const header = unionColumns(await store.pageColumns(name));
	const to = toColumnIndex(header, record.settings.toColumn);
	const toKey = to >= 0 ? header[to] : undefined;
	const done = { blanked: 0, mentions: 0 };
	for (let after = 0; ; ) {
		const pages = await store.pagesAfter(name, after, PAGES_AT_ONCE);
		if (pages.length === 0) return done;
		for (const p of pages) {
			const page = blankRecipients(p.body, holds, toKey);
			if (page && (await store.rewritePage(name, p.page, page.body))) {
				done.blanked += page.blanked;
				done.mentions += page.mentions;
			}
			after = p.page;
		}
	}
}

/**
 * An uploaded CSV is stored in pieces of bytes that cut through lines: the pieces a line
 * spans are held until its end is read, blanked together, and each written back if it
 * changed. Its first line, the header, is not a recipient.
 */
async function blankCsvPieces(
	store: ApiCampaignStore,
	name: string,
	holds: (text: string) => boolean,
): Promise<number> {
	let held: { page: number; bytes: Buffer; dirty: boolean }[] = [];
	/** Where the line not yet ended starts, in held[0]; -1 while the header is still to be passed. */
	let lineStart = -1;
	let blanked = 0;
	const scan = async (last: boolean) => {
		const joined = Buffer.concat(held.map((h) => h.bytes));
		let from = lineStart;
		if (from < 0) {
			const header = joined.indexOf(0x0a);
			if (header === -1 && !last) return;
			from = header === -1 ? joined.length : header + 1;
		}
		const end = last ? joined.length : Math.max(from, joined.lastIndexOf(0x0a) + 1);
		const n = blankCsvLines(joined, holds, from, end);
		if (n > 0) {
			blanked += n;
			for (let i = 0, at = 0; i < held.length; at += held[i].bytes.length, i++) {
				const now = joined.subarray(at, at + held[i].bytes.length);
				if (!now.equals(held[i].bytes))
					held[i] = { ...held[i], bytes: Buffer.from(now), dirty: true };
			}
		}
		// The pieces wholly before the line not yet ended are done.
		let done = 0;
		let at = 0;
		while (done < held.length && (last || at + held[done].bytes.length <= end))
			at += held[done++].bytes.length;
		for (const h of held.slice(0, done))
			if (h.dirty) await store.rewritePage(name, h.page, h.bytes.toString('base64'));
		held = held.slice(done);
		lineStart = end - at;
	};
	for (let after = 0; ; ) {
		const pages = await store.pagesAfter(name, after, 1);
		if (pages.length === 0) break;
		held.push({ page: pages[0].page, bytes: Buffer.from(pages[0].body, 'base64'), dirty: false });
		await scan(false);
		after = pages[0].page;
	}
	if (held.length > 0) await scan(true);
	return blanked;
}

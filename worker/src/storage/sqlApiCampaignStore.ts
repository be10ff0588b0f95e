import type { CampaignSettings } from '../../../api';
import type { CampaignSpec } from '../settings/campaignSpec';
import { API_CAMPAIGN_SQL as SQL } from './apiCampaignSql';
import {
	apiCampaignRecord,
	type ApiCampaignRecord,
	type ApiCampaignRow,
	type ApiCampaignState,
	type EndState,
	type ApiCampaignStore,
	type PutPageOutcome,
	type StoredPage,
} from './apiCampaignStore';
import { queuedIfMoved } from './daemonSql';
import type { KeyedForward } from './daemonStore';
import { all, type SqlDb, type Write } from './work';

/**
 * The API campaigns on either backend. A page (or a CSV) is stored in one write whose
 * first step takes the campaign's row only while it is a draft taking that kind of
 * recipients, so a start on any worker comes wholly before or after it; what a refusal
 * was is read afterwards, only to say it.
 */
export class SqlApiCampaignStore implements ApiCampaignStore {
	constructor(private readonly db: SqlDb) {}

	async create(
		name: string,
		settings: CampaignSettings,
		at: number,
	): Promise<{ created: boolean; record: ApiCampaignRecord }> {
		const [changed] = await this.db.write([[SQL.insert, name, JSON.stringify(settings), at]]);
		return { created: changed === 1, record: (await this.campaign(name))! };
	}

	async campaign(name: string): Promise<ApiCampaignRecord | undefined> {
		const [row] = await this.db.run(all<ApiCampaignRow>(SQL.campaign, name));
		return row && apiCampaignRecord(row);
	}

	async list(): Promise<{ name: string; state: ApiCampaignState }[]> {
		return (await this.db.run(all<{ name: string; state: ApiCampaignState }>(SQL.list))).map(
			(r) => ({ name: r.name, state: r.state }),
		);
	}

	async putPage(name: string, page: StoredPage, at: number): Promise<PutPageOutcome> {
		const [taken, inserted] = await this.db.write([
			[SQL.takeForPages, name, at],
			(changed) => (changed[0] === 1 ? this.insert(name, page, at) : undefined),
		]);
		if (taken !== 1) return this.refusal(name, 'pages');
		if (inserted !== 1) {
			const [stored] = await this.db.run(all<{ hash: string }>(SQL.pageHash, name, page.page));
			if (stored?.hash !== page.hash) return { outcome: 'page_conflict' };
		}
		return { outcome: inserted === 1 ? 'stored' : 'unchanged', ...(await this.totals(name)) };
	}

	async putCsv(
		name: string,
		csvHash: string,
		pages: StoredPage[],
		at: number,
	): Promise<PutPageOutcome> {
		const [taken] = await this.db.write([
			[SQL.takeForCsv, name, csvHash, at],
			...pages.map(
				(p) => (changed: readonly number[]) =>
					changed[0] === 1 ? this.insert(name, p, at) : undefined,
			),
		]);
		if (taken === 1) return { outcome: 'stored', ...(await this.totals(name)) };
		const record = await this.campaign(name);
		if (record?.source === 'csv' && record.state === 'draft')
			return record.csvHash === csvHash
				? { outcome: 'unchanged', ...(await this.totals(name)) }
				: { outcome: 'page_conflict' };
		return this.refusal(name, 'csv');
	}

	private insert(name: string, p: StoredPage, at: number): Write {
		return [
			SQL.insertPage,
			name,
			p.page,
			p.hash,
			p.recipients,
			JSON.stringify(p.columns),
			p.body,
			at,
		];
	}

	/** Why a draft could not be taken for recipients of this kind. */
	private async refusal(name: string, source: 'pages' | 'csv'): Promise<PutPageOutcome> {
		const record = await this.campaign(name);
		if (!record) return { outcome: 'not_found' };
		if (record.state !== 'draft') return { outcome: 'started' };
		return {
			outcome: 'other_source',
			source: record.source ?? (source === 'pages' ? 'csv' : 'pages'),
		};
	}

	private async totals(name: string): Promise<{ pages: number; recipients: number }> {
		const [r] = await this.db.run(all<{ pages: number; recipients: number }>(SQL.totals, name));
		return { pages: Number(r.pages), recipients: Number(r.recipients) };
	}

	async pageTotals(name: string): Promise<{ pages: number[]; recipients: number }> {
		const pages = (await this.db.run(all<{ page: number }>(SQL.pageNumbers, name))).map(
			(r) => r.page,
		);
		return { pages, recipients: (await this.totals(name)).recipients };
	}

	async pageColumns(name: string): Promise<string[][]> {
		return (await this.db.run(all<{ columns: string }>(SQL.pageColumns, name))).map(
			(r) => JSON.parse(r.columns) as string[],
		);
	}

	async pagesAfter(
		name: string,
		afterPage: number,
		limit: number,
	): Promise<{ page: number; body: string }[]> {
		return this.db.run(all<{ page: number; body: string }>(SQL.pagesAfter, name, afterPage, limit));
	}

	async rewritePage(name: string, page: number, body: string): Promise<boolean> {
		// As the ledger erases: on SQLite the old content overwritten, not left in free pages or the WAL.
		const [changed] = await this.db.write([[SQL.rewritePage, name, page, body]], 'erase');
		return changed === 1;
	}

	async changeSettings(name: string, settings: CampaignSettings, at: number): Promise<boolean> {
		const [changed] = await this.db.write([
			[SQL.changeSettings, name, JSON.stringify(settings), at],
		]);
		return changed === 1;
	}

	async end(
		name: string,
		from: readonly ApiCampaignState[],
		to: EndState,
		at: number,
		reason?: string,
		events: readonly KeyedForward[] = [],
	): Promise<boolean> {
		const [changed] = await this.db.write([
			[SQL.end, to, at, reason ?? null, name, from.join(',')],
			queuedIfMoved(this.db.dialect, events, at),
			// At its end the pages go: the ledger holds the recipients from the import on, and
			// `contact forget` erases a number there; the pages would keep it.
			([moved]) => (moved === 1 ? [SQL.dropPages, name] : undefined),
		]);
		return changed === 1;
	}

	async start(
		name: string,
		spec: CampaignSpec,
		at: number,
		events: readonly KeyedForward[] = [],
	): Promise<boolean> {
		const [started] = await this.db.write([
			[SQL.start, name, at],
			([moved]) =>
				moved === 1 ? [SQL.insertLedgerCampaign, name, JSON.stringify(spec), at] : undefined,
			queuedIfMoved(this.db.dialect, events, at),
		]);
		return started === 1;
	}

	async pause(name: string, at: number, events: readonly KeyedForward[] = []): Promise<boolean> {
		const [paused] = await this.db.write([
			[SQL.pause, name, at],
			[SQL.forgetPausedBy, name],
			// Each pause is its own event (its time tells them apart).
			queuedIfMoved(this.db.dialect, events, at),
		]);
		return paused === 1;
	}

	async resume(name: string, at: number): Promise<boolean> {
		const [resumed] = await this.db.write([
			[SQL.resume, name, at],
			([moved]) => (moved === 1 ? [SQL.setReason, name, at, null] : undefined),
			[SQL.forgetPausedBy, name],
		]);
		return resumed === 1;
	}

	async setReason(name: string, at: number, reason?: string): Promise<void> {
		await this.db.write([[SQL.setReason, name, at, reason ?? null]]);
	}

	async endedBefore(before: number): Promise<string[]> {
		return (await this.db.run(all<{ name: string }>(SQL.endedBefore, before))).map((r) => r.name);
	}

	async remove(name: string): Promise<boolean> {
		// The pages only if the record goes: a campaign not ended keeps them.
		const [removed] = await this.db.write([
			[SQL.removeEnded, name],
			([gone]) => (gone === 1 ? [SQL.dropPages, name] : undefined),
		]);
		return removed === 1;
	}

	async removeDraft(name: string): Promise<boolean> {
		const [removed] = await this.db.write([
			[SQL.removeDraft, name],
			([gone]) => (gone === 1 ? [SQL.dropPages, name] : undefined),
		]);
		return removed === 1;
	}

	async campaignsIn(states: readonly ApiCampaignState[]): Promise<ApiCampaignRecord[]> {
		return (await this.db.run(all<ApiCampaignRow>(SQL.inStates, states.join(',')))).map(
			apiCampaignRecord,
		);
	}

	async campaignsToRun(): Promise<ApiCampaignRecord[]> {
		return (await this.db.run(all<ApiCampaignRow>(SQL.toRun))).map(apiCampaignRecord);
	}

	async close(): Promise<void> {
		await this.db.close();
	}
}

import type Database from 'better-sqlite3';
import type { CampaignSettings } from '../../../../api';
import { openDatabase } from '../../ledger/openDatabase';
import { API_CAMPAIGN_SQL, type ApiCampaignStatement } from '../apiCampaignSql';
import { API_CAMPAIGN_SCHEMA } from './apiCampaignSchema';
import { apiCampaignRecord, type ApiCampaignRecord, type ApiCampaignRow, type ApiCampaignState, type ApiCampaignStore, type PutPageOutcome, type StoredPage } from '../apiCampaignStore';
import { sqliteParams } from './sqliteDb';

/**
 * The API campaigns in the worker's SQLite file. Every write that checks a state first
 * (a page against a start) is one write transaction, which SQLite runs one at a time.
 */
export class SqliteApiCampaignStore implements ApiCampaignStore {
	private readonly db: Database.Database;
	private readonly s: Record<ApiCampaignStatement, Database.Statement>;
	private readonly ownsConnection: boolean;

	/** `shared`: the ledger's connection to the same file, which stays the ledger's to close. */
	constructor(path: string, shared?: Database.Database) {
		if (shared) shared.exec(API_CAMPAIGN_SCHEMA);
		this.db = shared ?? openDatabase(path, API_CAMPAIGN_SCHEMA, "the worker's database");
		this.ownsConnection = !shared;
		this.s = Object.fromEntries(Object.entries(API_CAMPAIGN_SQL).map(([name, sql]) => [name, this.db.prepare(sql)])) as Record<ApiCampaignStatement, Database.Statement>;
	}

	private run(name: ApiCampaignStatement, ...args: unknown[]): Database.RunResult {
		return this.s[name].run(sqliteParams(args));
	}

	private all<T>(name: ApiCampaignStatement, ...args: unknown[]): T[] {
		return this.s[name].all(sqliteParams(args)) as T[];
	}

	private get<T>(name: ApiCampaignStatement, ...args: unknown[]): T | undefined {
		return this.s[name].get(sqliteParams(args)) as T | undefined;
	}

	async create(name: string, settings: CampaignSettings, at: number): Promise<{ created: boolean; record: ApiCampaignRecord }> {
		return this.db.transaction(() => {
			const created = this.run('insert', name, JSON.stringify(settings), at).changes === 1;
			return { created, record: apiCampaignRecord(this.get<ApiCampaignRow>('campaign', name)!) };
		}).immediate();
	}

	async campaign(name: string): Promise<ApiCampaignRecord | undefined> {
		const row = this.get<ApiCampaignRow>('campaign', name);
		return row && apiCampaignRecord(row);
	}

	async list(): Promise<{ name: string; state: ApiCampaignState }[]> {
		return this.all<{ name: string; state: ApiCampaignState }>('list').map((r) => ({ name: r.name, state: r.state }));
	}

	async putPage(name: string, page: StoredPage, at: number): Promise<PutPageOutcome> {
		return this.db.transaction((): PutPageOutcome => {
			const refused = this.refusal(name, 'pages');
			if (refused) return refused;
			const stored = this.insertPage(name, page, at);
			if (stored === 'page_conflict') return { outcome: stored };
			this.run('setSource', 'pages', null, at, name);
			return { outcome: stored, ...this.totals(name) };
		}).immediate();
	}

	async putCsv(name: string, csvHash: string, pages: StoredPage[], at: number): Promise<PutPageOutcome> {
		return this.db.transaction((): PutPageOutcome => {
			const refused = this.refusal(name, 'csv');
			if (refused) return refused;
			const record = apiCampaignRecord(this.get<ApiCampaignRow>('campaign', name)!);
			if (record.csvHash !== undefined) return record.csvHash === csvHash ? { outcome: 'unchanged', ...this.totals(name) } : { outcome: 'page_conflict' };
			for (const p of pages) this.insertPage(name, p, at);
			this.run('setSource', 'csv', csvHash, at, name);
			return { outcome: 'stored', ...this.totals(name) };
		}).immediate();
	}

	private refusal(name: string, source: 'pages' | 'csv'): PutPageOutcome | undefined {
		const row = this.get<ApiCampaignRow>('campaign', name);
		if (!row) return { outcome: 'not_found' };
		if (row.state !== 'draft') return { outcome: 'started' };
		if (row.source !== null && row.source !== source) return { outcome: 'other_source', source: row.source as 'pages' | 'csv' };
		return undefined;
	}

	private insertPage(name: string, p: StoredPage, at: number): 'stored' | 'unchanged' | 'page_conflict' {
		if (this.run('insertPage', name, p.page, p.hash, p.recipients, JSON.stringify(p.columns), p.body, at).changes === 1) return 'stored';
		return this.get<{ hash: string }>('pageHash', name, p.page)?.hash === p.hash ? 'unchanged' : 'page_conflict';
	}

	private totals(name: string): { pages: number; recipients: number } {
		const r = this.get<{ pages: number; recipients: number }>('totals', name)!;
		return { pages: r.pages, recipients: r.recipients };
	}

	async pageTotals(name: string): Promise<{ pages: number[]; recipients: number }> {
		return { pages: this.all<{ page: number }>('pageNumbers', name).map((r) => r.page), recipients: this.totals(name).recipients };
	}

	async pageColumns(name: string): Promise<string[][]> {
		return this.all<{ columns: string }>('pageColumns', name).map((r) => JSON.parse(r.columns) as string[]);
	}

	async pagesAfter(name: string, afterPage: number, limit: number): Promise<{ page: number; body: string }[]> {
		return this.all<{ page: number; body: string }>('pagesAfter', name, afterPage, limit);
	}

	async transition(name: string, from: readonly ApiCampaignState[], to: ApiCampaignState, at: number, reason?: string): Promise<boolean> {
		return this.run('transition', to, at, reason ?? null, name, from.join(',')).changes === 1;
	}

	async campaignsIn(states: readonly ApiCampaignState[]): Promise<ApiCampaignRecord[]> {
		return this.all<ApiCampaignRow>('inStates', states.join(',')).map(apiCampaignRecord);
	}

	async close(): Promise<void> {
		if (this.ownsConnection) this.db.close();
	}
}

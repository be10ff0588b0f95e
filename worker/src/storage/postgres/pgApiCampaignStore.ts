import type { Pool, PoolClient } from 'pg';
import type { CampaignSettings } from '../../../../api';
import { transaction } from './pgDatabase';
import { API_CAMPAIGN_SQL as SQL } from '../apiCampaignSql';
import { apiCampaignRecord, type ApiCampaignRecord, type ApiCampaignRow, type ApiCampaignState, type ApiCampaignStore, type PutPageOutcome, type StoredPage } from '../apiCampaignStore';

/**
 * The API campaigns in the Postgres several workers share. A page and a start (on any two
 * workers) are ordered by the campaign row's lock (FOR UPDATE): a page is stored before
 * the start or refused after it, never half-way.
 */
export class PgApiCampaignStore implements ApiCampaignStore {
	constructor(private readonly pool: Pool) {}

	async create(name: string, settings: CampaignSettings, at: number): Promise<{ created: boolean; record: ApiCampaignRecord }> {
		const created = (await this.pool.query(SQL.insert, [name, JSON.stringify(settings), at])).rowCount === 1;
		const record = (await this.campaign(name))!;
		return { created, record };
	}

	async campaign(name: string): Promise<ApiCampaignRecord | undefined> {
		const r = await this.pool.query<ApiCampaignRow>(SQL.campaign, [name]);
		return r.rows[0] && apiCampaignRecord(r.rows[0]);
	}

	async list(): Promise<{ name: string; state: ApiCampaignState }[]> {
		return (await this.pool.query<{ name: string; state: ApiCampaignState }>(SQL.list)).rows.map((r) => ({ name: r.name, state: r.state }));
	}

	async putPage(name: string, page: StoredPage, at: number): Promise<PutPageOutcome> {
		return transaction(this.pool, async (db): Promise<PutPageOutcome> => {
			const locked = await this.lock(db, name, 'pages');
			if ('outcome' in locked) return locked;
			const stored = await this.insertPage(db, name, page, at);
			if (stored === 'page_conflict') return { outcome: stored };
			if (locked.row.source === null) await db.query(SQL.setSource, ['pages', null, at, name]);
			return { outcome: stored, ...(await this.totals(db, name)) };
		});
	}

	async putCsv(name: string, csvHash: string, pages: StoredPage[], at: number): Promise<PutPageOutcome> {
		return transaction(this.pool, async (db): Promise<PutPageOutcome> => {
			const locked = await this.lock(db, name, 'csv');
			if ('outcome' in locked) return locked;
			const known = locked.row.csv_hash;
			if (known !== null) return known === csvHash ? { outcome: 'unchanged', ...(await this.totals(db, name)) } : { outcome: 'page_conflict' };
			for (const p of pages) await this.insertPage(db, name, p, at);
			await db.query(SQL.setSource, ['csv', csvHash, at, name]);
			return { outcome: 'stored', ...(await this.totals(db, name)) };
		});
	}

	private async lock(db: PoolClient, name: string, source: 'pages' | 'csv'): Promise<PutPageOutcome | { row: ApiCampaignRow }> {
		const r = await db.query<ApiCampaignRow>(`${SQL.campaign} FOR UPDATE`, [name]);
		const row = r.rows[0];
		if (!row) return { outcome: 'not_found' };
		if (row.state !== 'draft') return { outcome: 'started' };
		if (row.source !== null && row.source !== source) return { outcome: 'other_source', source: row.source as 'pages' | 'csv' };
		return { row };
	}

	private async insertPage(db: PoolClient, name: string, p: StoredPage, at: number): Promise<'stored' | 'unchanged' | 'page_conflict'> {
		if ((await db.query(SQL.insertPage, [name, p.page, p.hash, p.recipients, JSON.stringify(p.columns), p.body, at])).rowCount === 1) return 'stored';
		const r = await db.query<{ hash: string }>(SQL.pageHash, [name, p.page]);
		return r.rows[0]?.hash === p.hash ? 'unchanged' : 'page_conflict';
	}

	private async totals(db: Pool | PoolClient, name: string): Promise<{ pages: number; recipients: number }> {
		const r = await db.query<{ pages: number; recipients: number }>(SQL.totals, [name]);
		return { pages: Number(r.rows[0].pages), recipients: Number(r.rows[0].recipients) };
	}

	async pageTotals(name: string): Promise<{ pages: number[]; recipients: number }> {
		const pages = (await this.pool.query<{ page: number }>(SQL.pageNumbers, [name])).rows.map((r) => r.page);
		return { pages, recipients: (await this.totals(this.pool, name)).recipients };
	}

	async pageColumns(name: string): Promise<string[][]> {
		return (await this.pool.query<{ columns: string }>(SQL.pageColumns, [name])).rows.map((r) => JSON.parse(r.columns) as string[]);
	}

	async pagesAfter(name: string, afterPage: number, limit: number): Promise<{ page: number; body: string }[]> {
		return (await this.pool.query<{ page: number; body: string }>(SQL.pagesAfter, [name, afterPage, limit])).rows;
	}

	async transition(name: string, from: readonly ApiCampaignState[], to: ApiCampaignState, at: number, reason?: string): Promise<boolean> {
		return (await this.pool.query(SQL.transition, [to, at, reason ?? null, name, from.join(',')])).rowCount === 1;
	}

	async campaignsIn(states: readonly ApiCampaignState[]): Promise<ApiCampaignRecord[]> {
		return (await this.pool.query<ApiCampaignRow>(SQL.inStates, [states.join(',')])).rows.map(apiCampaignRecord);
	}

	async close(): Promise<void> {
		await this.pool.end();
	}
}

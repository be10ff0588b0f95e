import type {
	ClickRecord,
	LinkCounts,
	LinkStore,
	LinkTarget,
	RecordedClick,
	RowClick,
} from './linkStore';
import { linkSql, type LinkSql } from './linkSql';
import { all, get, run, type SqlDb, type Work } from './work';

interface TargetDbRow {
	url: string;
	created_at: number;
	campaign: string;
	line: number;
}

const target = (r: TargetDbRow): LinkTarget => ({
	url: r.url,
	createdAt: Number(r.created_at),
	campaign: r.campaign,
	line: Number(r.line),
});

/** The LinkStore on either backend, over the ledger's connection. */
export class SqlLinkStore implements LinkStore {
	private readonly q: LinkSql;

	constructor(private readonly db: SqlDb) {
		this.q = linkSql(db.dialect);
	}

	async target(token: string): Promise<LinkTarget | undefined> {
		const r = await this.db.run(get<TargetDbRow>(this.q.target, token));
		return r ? target(r) : undefined;
	}

	async recordClick(click: ClickRecord, scanWindowMs: number): Promise<RecordedClick | undefined> {
		const q = this.q;
		return this.db.tx(
			(function* (): Work<RecordedClick | undefined> {
				const r = yield* get<TargetDbRow>(q.target, click.token);
				if (!r) return undefined;
				const t = target(r);
				let prefetch = click.prefetch;
				if (!prefetch && scanWindowMs > 0) {
					const times = yield* get<{ received_at: number | null; sent_at: number | null }>(
						q.rowTimes,
						t.campaign,
						t.line,
					);
					const near = (ms: number | null, before: number) =>
						ms !== null && click.at >= Number(ms) - before && click.at <= Number(ms) + scanWindowMs;
					prefetch =
						near(times?.sent_at ?? null, 0) || near(times?.received_at ?? null, scanWindowMs);
				}
				const first = !prefetch && !(yield* get(q.clickedBefore, click.token));
				const stored = yield* run(
					q.insertClick,
					click.key,
					click.token,
					t.campaign,
					t.line,
					click.at,
					prefetch ? 1 : 0,
				);
				const to = first
					? (yield* get<{ to_number: string | null }>(q.rowNumber, t.campaign, t.line))?.to_number
					: undefined;
				return { ...t, prefetch, first: first && stored > 0, ...(to ? { to } : {}) };
			})(),
		);
	}

	async counts(campaign: string): Promise<LinkCounts> {
		const r = await this.db.run(
			get<{ clicked: number; clicks: number | null; prefetches: number | null }>(
				this.q.counts,
				campaign,
			),
		);
		return {
			clicked: Number(r?.clicked ?? 0),
			clicks: Number(r?.clicks ?? 0),
			prefetches: Number(r?.prefetches ?? 0),
		};
	}

	async perLink(campaign: string): Promise<{ url: string; clicked: number; clicks: number }[]> {
		const rows = await this.db.run(
			all<{ url: string; clicked: number; clicks: number }>(this.q.perLink, campaign),
		);
		return rows.map((r) => ({ url: r.url, clicked: Number(r.clicked), clicks: Number(r.clicks) }));
	}

	async clickBuckets(
		campaign: string,
		bucketSeconds: number,
	): Promise<{ at: number; count: number }[]> {
		const rows = await this.db.run(
			all<{ at: number; count: number }>(this.q.clickBuckets, campaign, bucketSeconds),
		);
		return rows.map((r) => ({ at: Number(r.at), count: Number(r.count) }));
	}

	async clickedLines(campaign: string): Promise<number[]> {
		const rows = await this.db.run(all<{ line: number }>(this.q.clickedLines, campaign));
		return rows.map((r) => Number(r.line));
	}

	async rowClicks(campaign: string, line: number): Promise<RowClick[]> {
		const rows = await this.db.run(
			all<{ at: number; prefetch: number | boolean; url: string | null }>(
				this.q.rowClicks,
				campaign,
				line,
			),
		);
		return rows.map((r) => ({
			at: Number(r.at),
			url: r.url ?? undefined,
			prefetch: r.prefetch === true || r.prefetch === 1,
		}));
	}

	async pruneLinks(before: number): Promise<number> {
		return this.db.tx(run(this.q.pruneLinks, before));
	}
}

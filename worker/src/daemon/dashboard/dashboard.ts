import type { LedgerReader } from '../../storage/ledger';
import { PHASES, type DashboardPhase } from './campaignPhase';
import { byPhase, dashboardRow, type DashboardRow } from './dashboardRow';
import { FiguresCache } from './figuresCache';
import { emptyFigures } from '../../storage/dashboardFigures';
import { apiOnlyRow, type ApiCampaignEntry } from './apiOnlyRow';

export interface DashboardFilter {
	phase?: string;
	/** Part of a name, in any case. */
	q?: string;
}

export interface DashboardOptions {
	ledger: Pick<LedgerReader, 'dashboardCampaigns' | 'dashboardFigures'>;
	/** `limits.pricePerSegment`: a cost for campaigns no spend cap reserved money for. */
	pricePerSegment?: number;
	/**
	 * The API's drafts (not in the ledger until they start) and failed campaigns (the ledger
	 * has no such end: their record says it, as the API's status does).
	 */
	apiCampaigns?: () => Promise<ApiCampaignEntry[]>;
	/** The config's cron campaigns and their next tick (ISO 8601). */
	cron?: () => { campaign: string; next?: string }[];
	now?: () => number;
}

/** Every campaign of the ledger as the dashboard lists it: one read of the campaigns, their figures from the cache. */
export class Dashboard {
	private readonly cache: FiguresCache;

	constructor(private readonly options: DashboardOptions) {
		this.cache = new FiguresCache(options.ledger, options.now);
	}

	async rows(filter: DashboardFilter = {}): Promise<DashboardRow[]> {
		const now = (this.options.now ?? Date.now)();
		const campaigns = await this.options.ledger.dashboardCampaigns();
		const figures = await this.cache.figures(campaigns);
		const inLedger = new Set(campaigns.map((c) => c.name));
		const api = await (this.options.apiCampaigns?.() ?? []);
		const failed = new Map(api.filter((a) => a.state === 'failed').map((a) => [a.name, a]));
		const q = filter.q?.trim().toLowerCase();
		const phase = PHASES.includes(filter.phase as DashboardPhase) ? filter.phase : undefined;
		return campaigns
			.map((c): DashboardRow => {
				const f = figures.get(c.name);
				const row = dashboardRow(
					c,
					f ?? emptyFigures(),
					now,
					this.options.pricePerSegment,
					failed.get(c.name),
				);
				return f
					? row
					: { ...row, counting: true as const, why: `${row.why} (counting its figures)` };
			})
			.concat(api.filter((a) => !inLedger.has(a.name)).map(apiOnlyRow))
			.filter((r) => !q || r.name.toLowerCase().includes(q))
			.filter((r) => phase === undefined || r.phase === phase)
			.sort(byPhase);
	}

	async row(name: string): Promise<DashboardRow | undefined> {
		return (await this.rows()).find((r) => r.name === name);
	}

	cron(): { campaign: string; next?: string }[] {
		return this.options.cron?.() ?? [];
	}
}

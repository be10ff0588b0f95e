import type { DashboardCampaign, DashboardFigures } from '../../storage/ledger';
import type { LedgerReader } from '../../storage/ledger';
import { emptyFigures } from '../../storage/dashboardFigures';
import { addFigures } from './addFigures';

/** Figures of this many rows at most are read again while the page waits; more, in the background. */
const AWAITED_ROWS = 200_000;

/**
 * The dashboard's figures, read again when they are older than a time that grows with the
 * campaign's rows: counting a million rows takes seconds, on the worker's own connection,
 * so a page polled every 2 s must not do it every time. A small campaign's figures are
 * at most about a second old; a million-row one's about 20 s (one that is over, 5 times
 * that), read again in the background while the page shows the last. A big campaign not
 * counted yet has none: its page says it is counting.
 */
export class FiguresCache {
	private readonly entries = new Map<string, { figures: DashboardFigures; readAt: number }>();
	private background: Promise<void> | undefined;

	constructor(
		private readonly ledger: Pick<LedgerReader, 'dashboardFigures'>,
		private readonly now: () => number = Date.now,
	) {}

	async figures(campaigns: readonly DashboardCampaign[]): Promise<Map<string, DashboardFigures>> {
		const now = this.now();
		const awaited: string[] = [];
		const later: string[] = [];
		let awaitedRows = 0;
		for (const c of campaigns) {
			const e = this.entries.get(c.name);
			if (e && now - e.readAt <= staleAfterMs(c, e.figures)) continue;
			// Before its first count, the line its import reached says about how big it is.
			const size = e?.figures.total ?? c.record.importedThrough;
			if (awaitedRows + size <= AWAITED_ROWS) {
				awaited.push(c.name);
				awaitedRows += size;
			} else later.push(c.name);
		}
		if (awaited.length > 0) await this.read(awaited);
		// After this answer has gone: better-sqlite3 reads synchronously, so a read started
		// now would hold this very request for as long as it counts.
		if (later.length > 0 && !this.background)
			this.background = turn()
				.then(() => this.readInSteps(campaigns.filter((c) => later.includes(c.name))))
				.catch(() => undefined)
				.finally(() => (this.background = undefined));
		const names = new Set(campaigns.map((c) => c.name));
		for (const name of this.entries.keys()) if (!names.has(name)) this.entries.delete(name);
		const known = new Map<string, DashboardFigures>();
		for (const c of campaigns) {
			const e = this.entries.get(c.name);
			if (e) known.set(c.name, e.figures);
		}
		return known;
	}

	private async read(names: string[]): Promise<void> {
		const readAt = this.now();
		for (const [name, figures] of await this.ledger.dashboardFigures(names))
			this.entries.set(name, { figures, readAt });
	}

	/**
	 * Each big campaign STEP_LINES lines at a time, a turn of the event loop between parts:
	 * a request that comes meanwhile waits for one part, not the whole count.
	 */
	private async readInSteps(campaigns: DashboardCampaign[]): Promise<void> {
		for (const c of campaigns) {
			const readAt = this.now();
			const figures = emptyFigures();
			// Lines past the import's last (still importing) fall in the last part.
			const end = c.record.importedThrough;
			for (let after = 0; ; after += STEP_LINES) {
				const through = after + STEP_LINES >= end ? LAST_LINE : after + STEP_LINES;
				const part = await this.ledger.dashboardFigures([c.name], { after, through });
				addFigures(figures, part.get(c.name) ?? emptyFigures());
				if (through === LAST_LINE) break;
				await turn();
			}
			this.entries.set(c.name, { figures, readAt });
		}
	}
}

/** Lines per part of a big campaign's count: tens of milliseconds each. */
const STEP_LINES = 50_000;
/** Past any line: Postgres's INTEGER's largest. */
const LAST_LINE = 2_147_483_647;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function staleAfterMs(c: DashboardCampaign, f: DashboardFigures): number {
	const ms = 1_000 + f.total / 50;
	return c.record.phase === 'finished' || c.record.phase === 'cancelled' ? ms * 5 : ms;
}

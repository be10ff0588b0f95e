import type { GuardLedger, PausedBy } from '../storage/ledger';
import { SettingError } from '../errors';

/** `--max-failure-rate`'s default: a campaign whose messages fail this much is pausing for a reason. */
export const DEFAULT_MAX_FAILURE_RATE = 0.3;
/** The window: the latest outcomes judged, and how many it needs before it judges at all. */
export const BRAKE_WINDOW = 200;
export const BRAKE_MIN_OUTCOMES = 50;
/** How often a run asks the store: receipts come in by another process, at their own pace. */
const JUDGE_EVERY_MS = 1000;

export function checkMaxFailureRate(rate: number | undefined): void {
	if (rate === undefined) return;
	if (!(rate >= 0 && rate <= 1))
		throw new SettingError(
			'maxFailureRate',
			`must be a fraction from 0 to 1, such as 0.3 (got ${rate})`,
		);
}

/**
 * The failure-rate brake: over the campaign's latest delivery outcomes (provider rejections
 * and receipts) after its mark, a share of failures above `maxRate` pauses the campaign. The
 * mark moves past every row sent when it pauses, so after `campaign resume` it judges afresh.
 */
export class FailureRateBrake {
	private judgedAt = -Infinity;

	constructor(
		private readonly store: GuardLedger,
		private readonly campaign: string,
		readonly maxRate: number,
	) {}

	/**
	 * Why the campaign must pause now, or undefined; asks the store at most once a second.
	 * `throughLine`: the highest line this run has settled, where the window ends.
	 */
	async judge(throughLine: number, now = performance.now()): Promise<PausedBy | undefined> {
		if (this.maxRate <= 0 || now - this.judgedAt < JUDGE_EVERY_MS) return undefined;
		this.judgedAt = now;
		const o = await this.store.latestOutcomes(this.campaign, BRAKE_WINDOW, throughLine);
		if (o.total < BRAKE_MIN_OUTCOMES || o.failed / o.total <= this.maxRate) return undefined;
		const codes = Object.entries(o.failedByCode)
			.sort((a, b) => b[1] - a[1])
			.slice(0, 3)
			.map(([code, n]) => `${code || 'no ErrorCode'} ${n}`)
			.join(', ');
		return {
			by: 'failure-rate',
			detail: `${o.failed} of the latest ${o.total} delivery outcomes failed (${Math.round((100 * o.failed) / o.total)}%, above --max-failure-rate ${this.maxRate}): ${codes}; check the list, then \`cloudtel campaign resume\` to go on`,
		};
	}

	/** After the run's last chunk is in: only rows sent after a resume count from now on. */
	seen(): Promise<void> {
		return this.store.markOutcomesSeen(this.campaign);
	}
}

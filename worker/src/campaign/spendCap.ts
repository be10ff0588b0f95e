import type { GuardLedger, PausedBy } from '../storage/ledger';
import { SETTING_FLAG, SettingError } from '../errors';
import { DAY_KEY } from '../storage/guardSql';

/** `--max-cost` with `--price-per-segment` (config and API `maxCost`, `pricePerSegment`). */
export interface SpendCapSetting {
	maxCost: number;
	pricePerSegment: number;
}

/** Money in millionths: sums of prices such as 0.045 stay exact, on both backends. */
export const toMicros = (amount: number): number => Math.round(amount * 1e6);
export const fromMicros = (micros: number): number => micros / 1e6;

/** Money as a person reads it: 2 decimals, more when the price has them. */
export const money = (amount: number): string =>
	amount.toFixed(Math.max(2, Math.min(6, (String(amount).split('.')[1] ?? '').length)));

export function checkSpendCap(
	maxCost?: number,
	pricePerSegment?: number,
	setting: 'maxCost' | 'dailyMaxCost' = 'maxCost',
): void {
	if (maxCost === undefined) return;
	if (!(maxCost >= 0) || !Number.isFinite(maxCost))
		throw new SettingError(setting, `must be an amount, 0 or more (got ${maxCost})`);
	if (pricePerSegment === undefined)
		throw new SettingError(
			setting,
			'needs the price of one segment to count the cost: give --price-per-segment (config: pricePerSegment)',
			`${SETTING_FLAG[setting]} needs the price of one segment to count the cost: give --price-per-segment`,
		);
}

/**
 * A campaign's spend cap. Messages are paid for before they are handed over: each chunk
 * reserves its cost in the store, as many of its rows (in order) as fit, so the provider
 * never gets one that takes the campaign past the cap, whichever worker sends it. What is
 * reserved for a message not handed over after all (back to pending, suppressed, refused
 * by the provider) is given back; a lost answer keeps its reservation, as it may be paid.
 */
export class SpendCap {
	private readonly cap: number;
	private readonly price: number;

	/**
	 * `key`: where the spend is kept, asked at each reservation (a day's cap moves to the next
	 * day's key at midnight); `kind` names the guardrail in `pausedBy`.
	 */
	constructor(
		private readonly store: GuardLedger,
		private readonly keyOf: () => string,
		readonly setting: SpendCapSetting,
		readonly kind: 'spend-cap' | 'daily-spend-cap' = 'spend-cap',
	) {
		this.cap = toMicros(setting.maxCost);
		this.price = toMicros(setting.pricePerSegment);
	}

	private get key(): string {
		return this.keyOf();
	}

	/** How many of `rows`, from the first, are reserved; fewer than all when the cap is reached. */
	async reserve(rows: readonly { segments: number }[]): Promise<number> {
		// Another worker may reserve between the read and the write: the write's condition
		// refuses then, and the fit is counted again from the new sum.
		for (;;) {
			const spent = await this.store.spent(this.key);
			let n = 0;
			let cost = 0;
			for (const r of rows) {
				const c = r.segments * this.price;
				if (spent + cost + c > this.cap) break;
				cost += c;
				n++;
			}
			if (n === 0) return 0;
			if (await this.store.reserveSpend(this.key, cost, this.cap)) return n;
		}
	}

	release(segments: number): Promise<void> {
		return this.store.releaseSpend(this.key, segments * this.price);
	}

	async pausedBy(pending: number): Promise<PausedBy> {
		const key = this.key;
		const spent = fromMicros(await this.store.spent(key));
		if (this.kind === 'daily-spend-cap')
			return {
				by: 'daily-spend-cap',
				detail: `the day's spend across campaigns is ${money(spent)} of --daily-max-cost ${money(this.setting.maxCost)} (${key.slice(DAY_KEY.length)}) at ${this.setting.pricePerSegment} per segment; ${pending} rows stay pending: run it again tomorrow, or with a higher --daily-max-cost`,
			};
		return {
			by: 'spend-cap',
			detail: `spent ${money(spent)} of --max-cost ${money(this.setting.maxCost)} at ${this.setting.pricePerSegment} per segment; ${pending} rows stay pending: run it again with a higher --max-cost to send them`,
		};
	}
}

/** A dry run's answer: how many of its valid rows, in file order, fit under the cap. */
export class SpendFit {
	rows = 0;
	segments = 0;
	private full = false;
	private readonly cap: number;
	private readonly price: number;

	constructor(readonly setting: SpendCapSetting) {
		this.cap = toMicros(setting.maxCost);
		this.price = toMicros(setting.pricePerSegment);
	}

	add(segments: number): void {
		if (this.full) return;
		if ((this.segments + segments) * this.price > this.cap) {
			// Sending stops at the first row that does not fit: the rows after it wait too.
			this.full = true;
			return;
		}
		this.rows++;
		this.segments += segments;
	}

	result(): { maxCost: number; rowsWithin: number; costWithin: number } {
		return {
			maxCost: this.setting.maxCost,
			rowsWithin: this.rows,
			costWithin: fromMicros(this.segments * this.price),
		};
	}
}

/** The day's spend key: `spend-day:2026-11-28`, the date in `timeZone` (UTC when none). */
export function dayKey(timeZone: string | undefined, now = Date.now()): string {
	const date = new Intl.DateTimeFormat('en-CA', {
		timeZone: timeZone ?? 'UTC',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).format(now);
	return DAY_KEY + date;
}

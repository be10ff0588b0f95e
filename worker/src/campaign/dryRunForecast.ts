import { failuresByCountry } from '../rows/countryOfPrefix';
import type { RefusedCounts } from './refusedTally';
import type { SenderIdWarning } from './senderIdRegister';
import type { ImportRow } from '../storage/ledger';
import { localTime } from '../schedule/localTime';
import type { Timing } from '../schedule/sendTime';
import { nextWindowOpening } from '../schedule/sendWindow';

/** What a dry run tells before anything is paid for. */
export interface DryRunForecast {
	messages: number;
	segments: number;
	pricePerSegment?: number;
	estimatedCost?: number;
	/** Messages UCS-2 makes cost more (70 characters a part, not 160), and the characters that do it. */
	ucs2: {
		messages: number;
		segments: number;
		characters: { character: string; codePoint: string; messages: number }[];
		examples: { line: number; characters: string; text?: string }[];
	};
	/** With --smart-encoding: what it saved; without: what it would save. */
	smartEncoding: { on: boolean; messages: number; segmentsSaved: number; costSaved?: number };
	countries: { country: string; messages: number }[];
	/** Rows the number guardrails refused: by country (--countries), and fixed lines (NOT_MOBILE). */
	refused?: RefusedCounts;
	/** An alphanumeric --from to Australian numbers, not listed as registered. */
	senderId?: SenderIdWarning;
	/** With --max-cost: the valid rows, in file order, a run sends before its cap pauses it. */
	spendCap?: { maxCost: number; rowsWithin: number; costWithin: number };
	/** When the last message should go out, from the rate, the schedule, the send window and the zones. */
	finish?: {
		at: string;
		local: string;
		zone: string;
		handOffSeconds: number;
		heldByWindow: boolean;
	};
}

const EXAMPLES = 3;
const CHARACTERS = 10;

/** Gathers a dry run's valid rows, a few numbers per row and no row kept. */
export class ForecastTally {
	messages = 0;
	segments = 0;
	private ucs2Messages = 0;
	private ucs2Segments = 0;
	private readonly characters = new Map<string, number>();
	readonly examples: { line: number; characters: string; text?: string }[] = [];
	private smartMessages = 0;
	private smartSaved = 0;
	/** Messages by the number's first digits: one country look-up per prefix, not per row. */
	private readonly prefixes = new Map<string, { sample: string; count: number }>();
	/** The last valid row's place in sending order, by time zone ('' for none). */
	private readonly lastByZone = new Map<string, number>();

	constructor(private readonly smartEncoding: boolean) {}

	add(row: ImportRow): void {
		const index = this.messages++;
		this.segments += row.segments;
		if (row.ucs2 !== undefined) {
			this.ucs2Messages++;
			this.ucs2Segments += row.segments;
			for (const c of row.ucs2) this.characters.set(c, (this.characters.get(c) ?? 0) + 1);
			if (this.examples.length < EXAMPLES)
				this.examples.push({ line: row.line, characters: row.ucs2 });
		}
		if (row.otherSegments !== undefined && row.otherSegments !== row.segments) {
			this.smartMessages++;
			this.smartSaved += this.smartEncoding
				? row.otherSegments - row.segments
				: row.segments - row.otherSegments;
		}
		const prefix = row.to!.slice(0, 6);
		const group = this.prefixes.get(prefix);
		if (group) group.count++;
		else this.prefixes.set(prefix, { sample: row.to!, count: 1 });
		this.lastByZone.set(row.timeZone ?? '', index);
	}

	forecast(options: {
		pricePerSegment?: number;
		rate: number;
		timing: Timing;
		now: number;
	}): DryRunForecast {
		const price = options.pricePerSegment;
		const money = (segments: number) =>
			price === undefined ? undefined : Math.round(segments * price * 10_000) / 10_000;
		const characters = [...this.characters]
			.sort((a, b) => b[1] - a[1])
			.slice(0, CHARACTERS)
			.map(([character, messages]) => ({
				character,
				codePoint: [...character]
					.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
					.join(' '),
				messages,
			}));
		return {
			messages: this.messages,
			segments: this.segments,
			pricePerSegment: price,
			estimatedCost: money(this.segments),
			ucs2: {
				messages: this.ucs2Messages,
				segments: this.ucs2Segments,
				characters,
				examples: this.examples,
			},
			smartEncoding: {
				on: this.smartEncoding,
				messages: this.smartMessages,
				segmentsSaved: this.smartSaved,
				costSaved: money(this.smartSaved),
			},
			countries: failuresByCountry([...this.prefixes.values()]).map((c) => ({
				country: c.country,
				messages: c.count,
			})),
			finish: this.messages > 0 ? this.finish(options) : undefined,
		};
	}

	/**
	 * Rows are handed to the provider in file order at the rate, from the schedule (or now);
	 * one handed outside its zone's send window goes out when the window next opens there.
	 * Both only move later along the list, so each zone's last row decides its finish.
	 */
	private finish({
		rate,
		timing,
		now,
	}: {
		rate: number;
		timing: Timing;
		now: number;
	}): DryRunForecast['finish'] {
		const start = Math.max(now, timing.schedule ?? 0);
		const handedAt = (index: number) => start + (rate > 0 ? Math.ceil(index / rate) : 0);
		let at = handedAt(this.messages - 1);
		let zone = timing.timeZone ?? 'UTC';
		let heldByWindow = false;
		if (timing.window) {
			at = 0;
			for (const [rowZone, index] of this.lastByZone) {
				const z = rowZone || timing.timeZone;
				if (!z) continue;
				const handed = handedAt(index);
				const out = nextWindowOpening(handed, timing.window, z);
				if (out >= at) {
					at = out;
					zone = z;
					heldByWindow = out > handed;
				}
			}
		}
		return {
			at: new Date(at * 1000).toISOString(),
			local: localTime(at, zone),
			zone,
			handOffSeconds: rate > 0 ? Math.ceil(this.messages / rate) : 0,
			heldByWindow,
		};
	}
}

import { SCHEDULE_HORIZON_SECONDS } from '../../../api';
import { nextWindowOpening, type SendWindow } from './sendWindow';

export interface Timing {
	/** Unix seconds: not before this. */
	schedule?: number;
	window?: SendWindow;
	/** IANA zone of the window for rows without their own. */
	timeZone?: string;
}

/** Room for the provider's clock running ahead of ours. */
const HORIZON_MARGIN = 10 * 60;
const DAY = 86_400;

/**
 * Until when the worker itself must wait: the API takes Schedule at most 14 days ahead,
 * and a send window can push a row up to a day past --schedule.
 */
export function waitUntil(timing: Timing): number | undefined {
	if (timing.schedule === undefined) return undefined;
	return timing.schedule + (timing.window ? DAY : 0) - (SCHEDULE_HORIZON_SECONDS - HORIZON_MARGIN);
}

/**
 * The Schedule field for a row sent now: the --schedule time, moved to the next opening
 * of the send window in the row's zone; undefined when that is now. The provider then
 * holds the message, so quiet hours hold even if this worker stops.
 */
export class SendTimes {
	private readonly byZone = new Map<string, number>();

	constructor(
		private readonly timing: Timing,
		private readonly now: number,
	) {}

	scheduleFor(rowZone?: string): number | undefined {
		const base = Math.max(this.now, this.timing.schedule ?? 0);
		let at = base;
		const zone = rowZone ?? this.timing.timeZone;
		if (this.timing.window && zone) {
			let cached = this.byZone.get(zone);
			if (cached === undefined) {
				cached = nextWindowOpening(base, this.timing.window, zone);
				this.byZone.set(zone, cached);
			}
			at = cached;
		}
		return at > this.now ? at : undefined;
	}
}

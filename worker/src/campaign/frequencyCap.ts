import { parseFrequencyCap, type FrequencyCap } from '../../../api';
import type { GuardLedger } from '../storage/ledger';
import { SettingError } from '../errors';

/** A row's ErrorCode when its number had had its --frequency-cap of messages. */
export const FREQUENCY_CAPPED = 'FREQUENCY_CAPPED';

/** `--frequency-cap N/PERIOD` (config and API `frequencyCap`), or a SettingError naming it. */
export function frequencyCapOf(text: string | undefined): FrequencyCap | undefined {
	if (text === undefined) return undefined;
	const cap = parseFrequencyCap(text);
	if (typeof cap === 'string') throw new SettingError('frequencyCap', cap);
	return cap;
}

/** What a chunk asks just before its request leaves: which of its numbers are at their cap. */
export interface FrequencyCapCheck {
	reachedAmong(numbers: readonly string[]): Promise<Set<string>>;
	/** The capped rows' message. */
	reason: string;
}

/**
 * The frequency cap, judged when a row is sent: its number's messages of every campaign in
 * the ledger within the period, counting other campaigns' chunks on their way. A chunk asks
 * after its own mark is committed, so of two workers sending one number at once the later
 * to ask sees the other's: together they never pass N (both may hold back, rarely).
 */
export function frequencyCapCheck(
	ledger: GuardLedger,
	campaign: string,
	text: string,
	now: () => number = Date.now,
): FrequencyCapCheck {
	const cap = frequencyCapOf(text)!;
	return {
		reason: `this number was sent ${cap.count} message${cap.count === 1 ? '' : 's'} within ${text.split('/')[1].trim()} already (--frequency-cap ${text.trim()})`,
		reachedAmong: (numbers) =>
			ledger.cappedAmong(numbers, campaign, now() - cap.periodMs, cap.count),
	};
}

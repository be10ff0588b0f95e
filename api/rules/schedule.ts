import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

export const SCHEDULE_HORIZON_SECONDS = 14 * 24 * 60 * 60;
export const SCHEDULE_PAST_TOLERANCE_SECONDS = 60 * 60;

/**
 * Schedule is UTC seconds: at most 14 days ahead; under an hour in the past is sent at
 * once; an hour or more in the past fails.
 */
export function checkSchedule(field: string, schedule: number, now: number): Violation | undefined {
	if (schedule > now + SCHEDULE_HORIZON_SECONDS) {
		return violation(field, ErrorCodes.ScheduleTooFar, `${field} is more than 14 days ahead.`);
	}
	if (schedule <= now - SCHEDULE_PAST_TOLERANCE_SECONDS) {
		return violation(field, ErrorCodes.ScheduleInPast, `${field} is an hour or more in the past.`);
	}
	return undefined;
}

/** True when a (valid) schedule means "send later" rather than "send now". */
export function isDeferred(schedule: number | undefined, now: number): boolean {
	return schedule !== undefined && schedule > now;
}

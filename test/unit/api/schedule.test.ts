import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	SCHEDULE_HORIZON_SECONDS,
	SCHEDULE_PAST_TOLERANCE_SECONDS,
	checkSchedule,
	isDeferred,
	validateSendMessage,
} from '../../../api';
import { NOW, SEND, ctx, pairs } from './helpers';

const DAY = 24 * 60 * 60;
const MIN = 60;

describe('schedule window: at most 14 days ahead, under 1 hour in the past', () => {
	it('the constants are 14 days and 1 hour', () => {
		expect(SCHEDULE_HORIZON_SECONDS).toBe(14 * DAY);
		expect(SCHEDULE_PAST_TOLERANCE_SECONDS).toBe(60 * MIN);
	});

	it.each([
		['14 days minus a second ahead', 14 * DAY - 1, undefined],
		['exactly 14 days ahead', 14 * DAY, undefined],
		['14 days plus a second ahead', 14 * DAY + 1, ErrorCodes.ScheduleTooFar],
		['a year ahead', 365 * DAY, ErrorCodes.ScheduleTooFar],
		['one second ahead', 1, undefined],
		['now', 0, undefined],
		['one second past', -1, undefined],
		['59 minutes past', -59 * MIN, undefined],
		['59 minutes 59 seconds past', -(60 * MIN - 1), undefined],
		['exactly 60 minutes past', -60 * MIN, ErrorCodes.ScheduleInPast],
		['61 minutes past', -61 * MIN, ErrorCodes.ScheduleInPast],
		['a day past', -DAY, ErrorCodes.ScheduleInPast],
		['the epoch', -NOW, ErrorCodes.ScheduleInPast],
	])('%s', (_label, offset, code) => {
		const v = checkSchedule('Schedule', NOW + offset, NOW);
		if (code === undefined) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'Schedule', ErrorCode: code });
		expect(pairs(validateSendMessage({ ...SEND, Schedule: NOW + offset }, ctx))).toEqual(
			code ? [`Schedule ${code}`] : [],
		);
	});

	it('a future schedule is deferred; now, a past one or none is sent at once', () => {
		expect(isDeferred(NOW + 1, NOW)).toBe(true);
		expect(isDeferred(NOW, NOW)).toBe(false);
		expect(isDeferred(NOW - 59 * MIN, NOW)).toBe(false);
		expect(isDeferred(undefined, NOW)).toBe(false);
	});

	it.each([
		[NOW + 0.5, 'a fraction'],
		[String(NOW + 60), 'a digit string'],
		[new Date((NOW + 60) * 1000).toISOString(), 'an ISO date'],
		[true, 'a boolean'],
		[[NOW], 'an array'],
	])('Schedule %j (%s) is INVALID_TYPE', (schedule, _label) => {
		expect(pairs(validateSendMessage({ ...SEND, Schedule: schedule }, ctx))).toEqual([
			'Schedule INVALID_TYPE',
		]);
	});

	it('Schedule null is the same as absent outside a patch', () => {
		expect(validateSendMessage({ ...SEND, Schedule: null }, ctx)).toEqual([]);
	});
});

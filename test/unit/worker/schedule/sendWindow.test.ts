import { describe, expect, it } from 'vitest';
import {
	insideWindow,
	nextWindowOpening,
	parseSendWindow,
} from '../../../../worker/src/schedule/sendWindow';
import { SendTimes, waitUntil } from '../../../../worker/src/schedule/sendTime';
import { localSecondOfDay, resolveTimeZone } from '../../../../worker/src/schedule/timeZone';

const utc = (iso: string) => Date.parse(iso) / 1000;

describe('send windows', () => {
	it('parses HH:MM-HH:MM and refuses nonsense', () => {
		expect(parseSendWindow('09:00-20:30')).toEqual({ start: 9 * 3600, end: 20 * 3600 + 1800 });
		expect(parseSendWindow('22:00-06:00')).toEqual({ start: 22 * 3600, end: 6 * 3600 });
		expect(() => parseSendWindow('9-5')).toThrow(/09:00-20:00/);
		expect(() => parseSendWindow('25:00-06:00')).toThrow(/does not exist/);
		expect(() => parseSendWindow('08:00-08:00')).toThrow(/two different ends/);
	});
	it('knows inside from outside, across midnight too', () => {
		const day = parseSendWindow('09:00-17:00');
		expect(insideWindow(9 * 3600, day)).toBe(true);
		expect(insideWindow(17 * 3600, day)).toBe(false);
		const night = parseSendWindow('22:00-06:00');
		expect(insideWindow(23 * 3600, night)).toBe(true);
		expect(insideWindow(3 * 3600, night)).toBe(true);
		expect(insideWindow(12 * 3600, night)).toBe(false);
	});
	it('resolves Windows IDs and IANA names', () => {
		expect(resolveTimeZone('AUS Eastern Standard Time')).toBe('Australia/Sydney');
		expect(resolveTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
		expect(resolveTimeZone('Mars/Olympus')).toBeUndefined();
		expect(localSecondOfDay(utc('2025-01-15T00:00:00Z'), 'Australia/Sydney')).toBe(11 * 3600);
	});
	it('finds the next opening in the zone', () => {
		const w = parseSendWindow('09:00-20:00');
		// 23:00 in Sydney (UTC+11 in January): next 09:00 local is 22:00 UTC.
		expect(nextWindowOpening(utc('2025-01-15T12:00:00Z'), w, 'Australia/Sydney')).toBe(
			utc('2025-01-15T22:00:00Z'),
		);
		// Inside already: now.
		expect(nextWindowOpening(utc('2025-01-15T00:00:00Z'), w, 'Australia/Sydney')).toBe(
			utc('2025-01-15T00:00:00Z'),
		);
	});
	it('lands on the local opening across a daylight-saving change', () => {
		const w = parseSendWindow('09:00-20:00');
		// Sydney leaves DST on 2025-04-06 at 03:00 local; from 21:00 local the day before, the
		// opening is 09:00 AEST (UTC+10) = 23:00 UTC.
		expect(nextWindowOpening(utc('2025-04-05T10:00:00Z'), w, 'Australia/Sydney')).toBe(
			utc('2025-04-05T23:00:00Z'),
		);
		// New York springs forward on 2025-03-09: 09:00 EDT is 13:00 UTC.
		expect(nextWindowOpening(utc('2025-03-09T03:00:00Z'), w, 'America/New_York')).toBe(
			utc('2025-03-09T13:00:00Z'),
		);
	});
	it('turns a window and --schedule into the Schedule field, and waits beyond 14 days', () => {
		const now = utc('2025-01-15T12:00:00Z');
		const times = new SendTimes(
			{ window: parseSendWindow('09:00-20:00'), timeZone: 'Australia/Sydney' },
			now,
		);
		expect(times.scheduleFor()).toBe(utc('2025-01-15T22:00:00Z'));
		expect(times.scheduleFor('Europe/London')).toBeUndefined();
		expect(new SendTimes({ schedule: now - 60 }, now).scheduleFor()).toBeUndefined();
		expect(new SendTimes({ schedule: now + 3600 }, now).scheduleFor()).toBe(now + 3600);
		expect(waitUntil({ schedule: now + 20 * 86400 })).toBe(now + 6 * 86400 + 600);
		expect(waitUntil({})).toBeUndefined();
	});
});

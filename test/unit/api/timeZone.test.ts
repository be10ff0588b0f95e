import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	WINDOWS_TIME_ZONES,
	checkWindowsTimeZone,
	ianaForWindowsTimeZone,
	isWindowsTimeZone,
} from '../../../api';

describe('Windows time zone IDs (the CLDR windowsZones list)', () => {
	it('holds the whole CLDR list of 139 IDs', () => {
		expect(Object.keys(WINDOWS_TIME_ZONES)).toHaveLength(139);
	});

	it.each([
		['AUS Eastern Standard Time', 'Australia/Sydney'],
		['AUS Central Standard Time', 'Australia/Darwin'],
		['Aus Central W. Standard Time', 'Australia/Eucla'],
		['Cen. Australia Standard Time', 'Australia/Adelaide'],
		['E. Australia Standard Time', 'Australia/Brisbane'],
		['W. Australia Standard Time', 'Australia/Perth'],
		['Tasmania Standard Time', 'Australia/Hobart'],
		['Lord Howe Standard Time', 'Australia/Lord_Howe'],
		['New Zealand Standard Time', 'Pacific/Auckland'],
		['Chatham Islands Standard Time', 'Pacific/Chatham'],
		['GMT Standard Time', 'Europe/London'],
		['W. Europe Standard Time', 'Europe/Berlin'],
		['Pacific Standard Time', 'America/Los_Angeles'],
		['Central Standard Time (Mexico)', 'America/Mexico_City'],
		['Eastern Standard Time', 'America/New_York'],
		['US Eastern Standard Time', 'America/Indianapolis'],
		['Turks And Caicos Standard Time', 'America/Grand_Turk'],
		['India Standard Time', 'Asia/Calcutta'],
		['Nepal Standard Time', 'Asia/Katmandu'],
		['Russia Time Zone 3', 'Europe/Samara'],
		['Russia Time Zone 10', 'Asia/Srednekolymsk'],
		['Russia Time Zone 11', 'Asia/Kamchatka'],
		['Yukon Standard Time', 'America/Whitehorse'],
		['Volgograd Standard Time', 'Europe/Volgograd'],
		['UTC', 'Etc/UTC'],
		['UTC-11', 'Etc/GMT+11'],
		['UTC-02', 'Etc/GMT+2'],
		['UTC+12', 'Etc/GMT-12'],
		['UTC+13', 'Etc/GMT-13'],
		['Dateline Standard Time', 'Etc/GMT+12'],
		['Line Islands Standard Time', 'Pacific/Kiritimati'],
	])('%s is a Windows ID (CLDR 001 zone %s)', (id, iana) => {
		expect(isWindowsTimeZone(id)).toBe(true);
		expect(checkWindowsTimeZone('TimeZone', id)).toBeUndefined();
		expect(ianaForWindowsTimeZone(id)).toBe(iana);
	});

	it.each([
		['aus eastern standard time', 'wrong case'],
		['AUS Eastern Standard Time ', 'trailing space'],
		[' AUS Eastern Standard Time', 'leading space'],
		['AUS  Eastern Standard Time', 'double space'],
		['Aus Eastern Standard Time', 'Aus for AUS'],
		['AUS Central W. Standard Time', 'AUS for Aus'],
		['AUS Eastern Daylight Time', 'daylight name'],
		['Australian Eastern Standard Time', 'spelled out'],
		['Cen Australia Standard Time', 'missing dot'],
		['Turks and Caicos Standard Time', 'lower-case and'],
		['Central Standard Time(Mexico)', 'missing space'],
		['UTC+00', 'no such offset ID'],
		['UTC-12', 'not an ID (Dateline Standard Time is)'],
		['UTC+14', 'not an ID (Line Islands Standard Time is)'],
		['UTC-2', 'unpadded'],
		['GMT', 'bare GMT'],
		['Russia Time Zone 2', 'no such Russia zone'],
		['Mid-Atlantic Standard Time', 'a registry name CLDR dropped'],
		['Kamchatka Standard Time', 'a registry name CLDR dropped'],
		['Australia/Sydney', 'an IANA name'],
		['Etc/UTC', 'an IANA name'],
		['AEST', 'an abbreviation'],
		['+10:00', 'an offset'],
		['', 'empty'],
		['toString', 'an Object.prototype member'],
		['__proto__', 'an Object.prototype member'],
		['hasOwnProperty', 'an Object.prototype member'],
	])('%j is not (%s)', (id) => {
		expect(isWindowsTimeZone(id)).toBe(false);
		expect(ianaForWindowsTimeZone(id)).toBeUndefined();
		expect(checkWindowsTimeZone('TimeZone', id)).toMatchObject({
			FieldName: 'TimeZone',
			ErrorCode: ErrorCodes.InvalidTimeZone,
		});
	});

	it('every IANA zone it maps to is known to Intl, so clocks can use it', () => {
		const unknown = Object.values(WINDOWS_TIME_ZONES).filter((zone) => {
			try {
				new Intl.DateTimeFormat('en', { timeZone: zone });
				return false;
			} catch {
				return true;
			}
		});
		expect(unknown).toEqual([]);
	});
});

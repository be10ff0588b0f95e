import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';
import { WINDOWS_TIME_ZONES } from '../windowsTimeZones';

export function isWindowsTimeZone(value: string): boolean {
	return Object.prototype.hasOwnProperty.call(WINDOWS_TIME_ZONES, value);
}

/** The IANA zone for a Windows ID, for clocks that only know IANA names (Intl). */
export function ianaForWindowsTimeZone(value: string): string | undefined {
	return isWindowsTimeZone(value) ? WINDOWS_TIME_ZONES[value] : undefined;
}

export function checkWindowsTimeZone(field: string, value: string): Violation | undefined {
	if (isWindowsTimeZone(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidTimeZone,
		`${field} must be a Windows time zone ID such as "AUS Eastern Standard Time" (got "${value}").`,
	);
}

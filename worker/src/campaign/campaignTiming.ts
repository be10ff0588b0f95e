import { resolveTimeZone } from '../schedule/timeZone';
import { parseSendWindow } from '../schedule/sendWindow';
import type { Timing } from '../schedule/sendTime';
import type { CampaignSpec } from '../settings/campaignSpec';
import { UsageError } from '../errors';

/**
 * The real API cannot tell us a property's time zone, so quiet hours need one from the
 * user: --time-zone (Windows, as the property holds it, or IANA), or a per-row column.
 */
export function campaignTiming(spec: CampaignSpec): Timing {
	const timing: Timing = { schedule: spec.schedule };
	if (spec.timeZone !== undefined) {
		timing.timeZone = resolveTimeZone(spec.timeZone);
		if (!timing.timeZone) throw new UsageError(`--time-zone "${spec.timeZone}" is neither a Windows time zone ID (such as "AUS Eastern Standard Time") nor an IANA name (such as "Australia/Sydney")`);
	}
	if (spec.sendWindow !== undefined) {
		try {
			timing.window = parseSendWindow(spec.sendWindow);
		} catch (error) {
			throw new UsageError((error as Error).message);
		}
		if (!timing.timeZone && spec.timeZoneColumn === undefined) {
			throw new UsageError('--send-window needs the time zone it is in: give --time-zone (the property\'s, Windows or IANA) or --time-zone-column');
		}
	}
	return timing;
}

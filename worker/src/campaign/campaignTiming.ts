import { resolveTimeZone } from '../schedule/timeZone';
import { parseSendWindow } from '../schedule/sendWindow';
import type { Timing } from '../schedule/sendTime';
import type { CampaignSpec } from '../settings/campaignSpec';
import { SettingError } from '../errors';

/**
 * The real API cannot tell us a property's time zone, so quiet hours need one from the
 * user: --time-zone (Windows, as the property holds it, or IANA), or a per-row column.
 */
export function campaignTiming(spec: CampaignSpec): Timing {
	const timing: Timing = { schedule: spec.schedule };
	if (spec.timeZone !== undefined) {
		timing.timeZone = resolveTimeZone(spec.timeZone);
		const detail = `"${spec.timeZone}" is neither a Windows time zone ID (such as "AUS Eastern Standard Time") nor an IANA name (such as "Australia/Sydney")`;
		if (!timing.timeZone) throw new SettingError('timeZone', detail, `--time-zone ${detail}`);
	}
	if (spec.sendWindow !== undefined) {
		try {
			timing.window = parseSendWindow(spec.sendWindow);
		} catch (error) {
			const detail = (error as Error).message;
			throw new SettingError('sendWindow', detail, `--send-window ${detail}`);
		}
		if (!timing.timeZone && spec.timeZoneColumn === undefined) {
			const detail =
				"needs the time zone it is in: give the time zone (the property's, Windows or IANA) or the time zone column";
			throw new SettingError(
				'sendWindow',
				detail,
				"--send-window needs the time zone it is in: give --time-zone (the property's, Windows or IANA) or --time-zone-column",
			);
		}
	}
	return timing;
}

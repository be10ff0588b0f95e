import { describe, expect, it } from 'vitest';
import { campaignTiming } from '../../../../worker/src/campaign/campaignTiming';
import { refusal } from '../../../../worker/src/campaign/sendChunk';
import { configProblem } from '../../../../worker/src/daemon/campaigns/csvCheck';
import { SettingError } from '../../../../worker/src/errors';
import type { CampaignSpec } from '../../../../worker/src/settings/campaignSpec';

const spec = (more: Partial<CampaignSpec>): CampaignSpec => ({
	name: 'c',
	csvPath: 'c.csv',
	propertySid: 'PR1',
	text: 'Hi',
	...more,
});

function thrown(f: () => unknown): SettingError {
	try {
		f();
	} catch (error) {
		if (error instanceof SettingError) return error;
		throw error;
	}
	throw new Error('nothing thrown');
}

/** The engine names the setting at fault; the CLI shows it by flag, the daemon by config path, never by flag. */
describe('engine errors by setting', () => {
	it('a send window or time zone the engine refuses', () => {
		const window = thrown(() => campaignTiming(spec({ sendWindow: '9-5', timeZone: 'UTC' })));
		expect(window.message).toBe('--send-window must look like 09:00-20:00 (got "9-5")');
		expect(configProblem(window, 2)).toBe(
			'campaigns[2].sendWindow: must look like 09:00-20:00 (got "9-5")',
		);

		const noZone = thrown(() => campaignTiming(spec({ sendWindow: '09:00-17:00' })));
		expect(noZone.message).toMatch(
			/^--send-window needs the time zone it is in: give --time-zone .* or --time-zone-column$/,
		);
		expect(configProblem(noZone, 0)).toMatch(
			/^campaigns\[0\]\.sendWindow: needs the time zone it is in/,
		);
		expect(configProblem(noZone, 0)).not.toMatch(/--/);

		const zone = thrown(() => campaignTiming(spec({ timeZone: 'Mars/Olympus' })));
		expect(zone.message).toMatch(/^--time-zone "Mars\/Olympus" is neither/);
		expect(configProblem(zone, 1)).toMatch(/^campaigns\[1\]\.timeZone: "Mars\/Olympus" is neither/);
	});

	it('a property the provider does not know: exit 1 on the CLI, the property named in the config', () => {
		const unknown = refusal(404, 'not found', 'PR9');
		expect(unknown).toBeInstanceOf(SettingError);
		expect(unknown.exitCode).toBe(1);
		expect(unknown.message).toBe(
			'the provider does not know property PR9 in this account (HTTP 404, not found): check --property',
		);
		expect(configProblem(unknown, 0)).toBe(
			'campaigns[0].property: the provider does not know property PR9 in this account (HTTP 404, not found)',
		);
	});
});

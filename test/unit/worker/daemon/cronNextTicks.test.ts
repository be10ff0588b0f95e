import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ConfigCampaignRuns } from '../../../../worker/src/daemon/campaigns/configCampaignRuns';
import { CampaignScheduler } from '../../../../worker/src/daemon/campaigns/campaignScheduler';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import type { CampaignConfig } from '../../../../worker/src/config/workerConfigSchema';

/**
 * The dashboard's strip of next cron ticks (CampaignScheduler.nextTicks), on the test's
 * clock: Monday 2030-01-07 09:30 UTC, 20:30 in Sydney (UTC+11 in January).
 */
const config = (name: string, cron: string, timeZone?: string) =>
	({
		name,
		cron,
		csv: 'x.csv',
		property: 'p',
		text: 't',
		receipts: true,
		timeZone,
	}) as CampaignConfig;

beforeEach(
	() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-07T09:30:00Z') }),
);
afterEach(() => void vi.useRealTimers());

it("gives each cron campaign's next tick in its own time zone, none before the scheduler starts", async () => {
	const scheduler = new CampaignScheduler(
		[
			config('weekly', '0 9 * * 1', 'UTC'),
			config('sydney-morning', '0 9 * * *', 'Australia/Sydney'),
			config('every-quarter-hour', '*/15 * * * *', 'UTC'),
		],
		{ run: async () => 'finished' } as unknown as ConfigCampaignRuns,
		new JsonLogger(() => {}),
	);
	expect(scheduler.nextTicks()).toEqual([]);
	scheduler.start();
	try {
		expect(scheduler.nextTicks()).toEqual([
			// Its 09:00 this Monday has passed: next Monday's.
			{ campaign: 'weekly', next: '2030-01-14T09:00:00.000Z' },
			// 09:00 on Tuesday in Sydney is 22:00 on Monday in UTC.
			{ campaign: 'sydney-morning', next: '2030-01-07T22:00:00.000Z' },
			{ campaign: 'every-quarter-hour', next: '2030-01-07T09:45:00.000Z' },
		]);
		// The strip follows the clock: past the quarter hour, the next one.
		vi.setSystemTime(new Date('2030-01-07T09:46:00Z'));
		expect(scheduler.nextTicks()[2]).toEqual({
			campaign: 'every-quarter-hour',
			next: '2030-01-07T10:00:00.000Z',
		});
	} finally {
		await scheduler.stop();
	}
});

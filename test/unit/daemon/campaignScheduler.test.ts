import { describe, expect, it } from 'vitest';
import type { CampaignRunner, RunEnd } from '../../../worker/src/daemon/campaigns/campaignRunner';
import { CampaignScheduler } from '../../../worker/src/daemon/campaigns/campaignScheduler';
import { JsonLogger } from '../../../worker/src/daemon/jsonLogger';
import type { CampaignConfig } from '../../../worker/src/config/workerConfigSchema';

const campaign = { name: 'weekly', cron: '0 9 * * 1', csv: 'x.csv', property: 'p', text: 't', receipts: true } as CampaignConfig;

describe('the campaign scheduler', () => {
	it('runs one tick of a campaign at a time; a tick meanwhile is skipped and logged', async () => {
		const lines: string[] = [];
		const runs: { run: string; signal: AbortSignal; finish: (end: RunEnd) => void }[] = [];
		const runner = {
			run: (_c: CampaignConfig, run: string, signal: AbortSignal) => new Promise<RunEnd>((finish) => runs.push({ run, signal, finish })),
		} as unknown as CampaignRunner;
		const scheduler = new CampaignScheduler([campaign], runner, new JsonLogger((l) => lines.push(l)));
		expect(scheduler.tick(campaign, new Date('2030-01-07T09:00:00Z'))).toBe(true);
		expect(scheduler.tick(campaign, new Date('2030-01-14T09:00:00Z'))).toBe(false);
		expect(runs.map((r) => r.run)).toEqual(['weekly-20300107T090000Z']);
		expect(lines.some((l) => l.includes('campaign tick skipped'))).toBe(true);

		runs[0].finish('finished');
		await new Promise((r) => setTimeout(r, 0));
		expect(scheduler.tick(campaign, new Date('2030-01-21T09:00:00Z'))).toBe(true);

		const stopped = scheduler.stop();
		expect(runs[1].signal.aborted).toBe(true);
		runs[1].finish('interrupted');
		await stopped;
		expect(scheduler.tick(campaign, new Date('2030-01-28T09:00:00Z'))).toBe(false);
	});
});

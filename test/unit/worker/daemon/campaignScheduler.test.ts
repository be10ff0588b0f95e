import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
	ConfigCampaignRuns,
	RunEnd,
} from '../../../../worker/src/daemon/campaigns/configCampaignRuns';
import { CampaignScheduler } from '../../../../worker/src/daemon/campaigns/campaignScheduler';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import type { CampaignConfig } from '../../../../worker/src/config/workerConfigSchema';
import { runName } from '../../../../worker/src/daemon/callbacks/4-replies/runName';

const campaign = {
	name: 'weekly',
	cron: '0 9 * * 1',
	csv: 'x.csv',
	property: 'p',
	text: 't',
	receipts: true,
} as CampaignConfig;

describe('the campaign scheduler', () => {
	it('runs one tick of a campaign at a time; a tick meanwhile is skipped and logged', async () => {
		const lines: string[] = [];
		const runs: { run: string; signal: AbortSignal; finish: (end: RunEnd) => void }[] = [];
		const runner = {
			run: (_c: CampaignConfig, run: string, signal: AbortSignal) =>
				new Promise<RunEnd>((finish) => runs.push({ run, signal, finish })),
		} as unknown as ConfigCampaignRuns;
		const scheduler = new CampaignScheduler(
			[campaign],
			runner,
			new JsonLogger((l) => lines.push(l)),
		);
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

describe('a run the store stopped', () => {
	afterEach(() => void vi.useRealTimers());

	it('is resumed after a run of the campaign that began while it waited, never dropped', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout'] });
		const calls: { run: string; end: (e: RunEnd) => void; fail: (e: Error) => void }[] = [];
		const runner = {
			run: (_c: CampaignConfig, run: string) =>
				new Promise<RunEnd>((end, fail) => calls.push({ run, end, fail })),
		} as unknown as ConfigCampaignRuns;
		const lines: any[] = [];
		const scheduler = new CampaignScheduler(
			[campaign],
			runner,
			new JsonLogger((l) => lines.push(JSON.parse(l))),
		);
		const first = new Date('2030-01-07T09:00:00Z');
		const next = new Date('2030-01-14T09:00:00Z');
		scheduler.tick(campaign, first);
		calls[0].fail(new Error('connect ECONNREFUSED'));
		await vi.advanceTimersByTimeAsync(0);
		// The next tick begins while the first waits for its resume, and is still going when it is due.
		expect(scheduler.tick(campaign, next)).toBe(true);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(calls.map((c) => c.run)).toEqual([runName('weekly', first), runName('weekly', next)]);
		calls[1].end('finished');
		await vi.advanceTimersByTimeAsync(0);
		expect(calls.map((c) => c.run)).toEqual([
			runName('weekly', first),
			runName('weekly', next),
			runName('weekly', first),
		]);
		expect(lines.filter((l) => l.msg === 'campaign run resumed')).toHaveLength(1);
		calls[2].end('finished');
		await scheduler.stop();
	});
});

describe('missed cron ticks', () => {
	const hourly = {
		...campaign,
		name: 'hourly',
		cron: '0 * * * *',
		timeZone: 'UTC',
	} as CampaignConfig;
	// The hour is the test's clock's, not the machine's: no run falls across an hour's boundary.
	beforeEach(
		() => void vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-07T09:30:00Z') }),
	);
	afterEach(() => void vi.useRealTimers());

	function rig(runs: string[], firstStartedAt: number | undefined, config: CampaignConfig) {
		const lines: any[] = [];
		const started: string[] = [];
		const runner = {
			run: async (_c: CampaignConfig, run: string) => (started.push(run), 'finished' as RunEnd),
		} as unknown as ConfigCampaignRuns;
		let fail = false;
		const store = {
			runsSince: async () => {
				if (fail) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
				return { runs, firstStartedAt };
			},
		};
		const scheduler = new CampaignScheduler(
			[config],
			runner,
			new JsonLogger((l) => lines.push(JSON.parse(l))),
			store,
		);
		return { scheduler, lines, started, failing: (v: boolean) => (fail = v) };
	}

	function lastHour(): Date {
		return new Date('2030-01-07T09:00:00Z');
	}

	it('runs the latest tick missed within catchUp (24h by default) and logs each older one as skipped', async () => {
		const { scheduler, lines, started } = rig([], Date.now() - 3 * 86_400_000, hourly);
		scheduler.start();
		await scheduler.lookForMissed();
		await new Promise((r) => setTimeout(r, 10));
		await scheduler.stop();
		expect(started).toEqual([runName('hourly', lastHour())]);
		const caught = lines.find((l) => l.msg === 'campaign tick caught up');
		expect(caught).toMatchObject({
			campaign: 'hourly',
			tick: lastHour().toISOString(),
			catchUp: '24h',
		});
		expect(lines.filter((l) => l.msg === 'campaign tick missed and skipped')).toHaveLength(10);
		expect(lines.find((l) => l.msg === 'campaign ticks missed and skipped')).toMatchObject({
			more: 13,
		});
	});

	it('runs nothing for a tick that has its run, for catchUp none (logging the skip), or for a campaign that never ran before the tick', async () => {
		const ran = rig([runName('hourly', lastHour())], Date.now() - 86_400_000, {
			...hourly,
			catchUp: '2h',
		} as CampaignConfig);
		ran.scheduler.start();
		await ran.scheduler.lookForMissed();
		await ran.scheduler.stop();
		// The tick before it was missed, but the run since supersedes it.
		expect(ran.started).toEqual([]);
		expect(ran.lines.filter((l) => /missed/.test(l.msg))).toEqual([]);

		const none = rig([], Date.now() - 86_400_000, { ...hourly, catchUp: 'none' } as CampaignConfig);
		none.scheduler.start();
		await none.scheduler.lookForMissed();
		await none.scheduler.stop();
		expect(none.started).toEqual([]);
		expect(
			none.lines
				.filter((l) => l.msg === 'campaign tick missed and skipped')
				.every((l) => l.why === 'catchUp is none'),
		).toBe(true);
		expect(none.lines.find((l) => l.msg === 'campaign ticks missed and skipped')).toMatchObject({
			to: lastHour().toISOString(),
			why: 'catchUp is none',
		});

		const fresh = rig([], undefined, hourly);
		fresh.scheduler.start();
		await fresh.scheduler.lookForMissed();
		await fresh.scheduler.stop();
		expect(fresh.started).toEqual([]);
		expect(fresh.lines.filter((l) => /missed/.test(l.msg))).toEqual([]);
	});

	it('a seconds cron catches up its latest missed tick, not one from the start of its day', async () => {
		const everySecond = { ...hourly, name: 'often', cron: '* * * * * *' } as CampaignConfig;
		// This second's tick and the one before are the cron's own to fire.
		const latest = new Date('2030-01-07T09:29:58Z');
		// Never ran in the last day (more ticks than the look walks), or ran ten seconds ago.
		for (const runs of [[], [runName('often', new Date('2030-01-07T09:29:50Z'))]]) {
			const { scheduler, lines, started } = rig(runs, Date.now() - 3 * 86_400_000, everySecond);
			scheduler.start();
			await scheduler.lookForMissed();
			await new Promise((r) => setTimeout(r, 10));
			await scheduler.stop();
			expect(started).toEqual([runName('often', latest)]);
			expect(lines.find((l) => l.msg === 'campaign tick caught up')).toMatchObject({
				tick: latest.toISOString(),
			});
		}
	});

	it('a store that does not answer is logged once and asked again; the tick is caught up once it answers', async () => {
		const { scheduler, lines, started, failing } = rig([], Date.now() - 86_400_000, {
			...hourly,
			catchUp: '90m',
		} as CampaignConfig);
		failing(true);
		scheduler.start();
		await scheduler.lookForMissed();
		await scheduler.lookForMissed();
		expect(
			lines.filter(
				(l) => l.msg === 'cannot look for missed ticks: the store does not answer; trying again',
			),
		).toHaveLength(1);
		expect(started).toEqual([]);
		failing(false);
		await scheduler.lookForMissed();
		await new Promise((r) => setTimeout(r, 10));
		await scheduler.stop();
		expect(started).toEqual([runName('hourly', lastHour())]);
	});
});

// A config campaign's run is not begun while another run of it (a tick of another second, or
// `campaign run --config` on the same ledger) is unfinished: two runs would text the same people.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CampaignRunner } from '../../../../worker/src/daemon/campaigns/campaignRunner';
import { ConfigCampaignRuns } from '../../../../worker/src/daemon/campaigns/configCampaignRuns';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { loadWorkerConfig } from '../../../../worker/src/config/loadWorkerConfig';
import type { CampaignRun, RunStore } from '../../../../worker/src/storage/daemonStore';
import { tempDir } from '../../../support/tempDir';

describe('a config campaign run', () => {
	it('is skipped, and logged, while another run of the campaign is unfinished', async () => {
		const dir = tempDir('cloudtel-onerun-');
		writeFileSync(join(dir, 'list.csv'), 'Phone,Name\n+61491570156,Ann\n');
		const file = join(dir, 'worker.yaml');
		writeFileSync(
			file,
			[
				`db: ${join(dir, 'ledger.db')}`,
				'provider: { baseUrl: "http://127.0.0.1:9", accountSid: AC1, authToken: t0123456789 }',
				'server: { publicUrl: "http://127.0.0.1:9", secret: one-run-secret-0123456789 }',
				'campaigns:',
				"  - { name: weekly, cron: '0 9 * * 1', csv: ./list.csv, property: 00000000-0000-4000-8000-000000000000, text: 'Hi {{Name}}' }",
			].join('\n'),
		);
		const config = loadWorkerConfig(file, {});
		const going: CampaignRun = { run: 'weekly-20300107T090000Z', campaign: 'weekly', startedAt: 1 };
		const started: string[] = [];
		const store = {
			startRun: async (run: CampaignRun) => void started.push(run.run),
			finishRun: async () => {},
			unfinishedRuns: async () => [going],
		} as unknown as RunStore;
		const lines: string[] = [];
		const runner = new ConfigCampaignRuns(
			new CampaignRunner({ config }),
			store,
			new JsonLogger((l) => lines.push(l)),
		);
		const end = await runner.run(
			config.campaigns[0],
			'weekly-20300114T090000Z',
			new AbortController().signal,
		);
		expect(end).toBe('skipped');
		expect(started).toEqual([]);
		expect(lines.join('')).toContain('another run of it is not finished');
		expect(lines.join('')).toContain(going.run);

		// Of two runs left unfinished together (say, by a crash), the older is resumed, not skipped.
		const newer: CampaignRun = { run: 'weekly-20300114T090000Z', campaign: 'weekly', startedAt: 2 };
		const both = new ConfigCampaignRuns(
			new CampaignRunner({ config }),
			{ ...store, unfinishedRuns: async () => [newer, going] } as unknown as RunStore,
			new JsonLogger(() => {}),
		);
		expect(await both.run(config.campaigns[0], newer.run, new AbortController().signal)).toBe(
			'skipped',
		);
		const older = both.run(config.campaigns[0], going.run, new AbortController().signal);
		expect(await older).not.toBe('skipped');
		expect(started).toEqual([going.run]);
	});
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCampaignSettings, durationMs } from '../../../api';
import { ConfigError } from '../../../worker/src/config/configError';
import { loadWorkerConfig } from '../../../worker/src/config/loadWorkerConfig';
import { tempDir } from '../../support/tempDir';

const PROPERTY = '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e';

describe('durations: one grammar for every setting and flag', () => {
	it('takes a number with ms, s, m, h or d, decimals and spaces; no unit is seconds', () => {
		expect(durationMs('500ms')).toBe(500);
		expect(durationMs('90s')).toBe(90_000);
		expect(durationMs('30m')).toBe(1_800_000);
		expect(durationMs('2h')).toBe(7_200_000);
		expect(durationMs('3d')).toBe(259_200_000);
		expect(durationMs('1.5h')).toBe(5_400_000);
		expect(durationMs(' 2 h ')).toBe(7_200_000);
		expect(durationMs('90')).toBe(90_000);
		expect(durationMs('0')).toBe(0);
	});

	it('refuses anything else', () => {
		for (const text of [
			'',
			' ',
			'h',
			'-1h',
			'+1h',
			'1e3',
			'2H',
			'1h30m',
			'1.h',
			'.5h',
			'2 hours',
			'3w',
			'1,5h',
		])
			expect(durationMs(text), text).toBeUndefined();
	});

	it('a config names the key whose duration it cannot read, each with the same examples', () => {
		const dir = tempDir('cloudtel-duration-');
		const path = join(dir, 'worker.yaml');
		const campaign = {
			name: 'c',
			cron: '0 9 * * 1',
			csv: 'a.csv',
			property: PROPERTY,
			text: 'hi',
			catchUp: '1 day',
			variants: ['ho'],
			decideAfter: '2 hours',
		};
		writeFileSync(
			path,
			[
				'provider: { baseUrl: "http://127.0.0.1:4010", accountSid: AC1, authToken: tok }',
				'server: { publicUrl: "https://worker.example.com", secret: "0123456789abcdef" }',
				'events: { maxAge: 3w }',
				'links: { ttl: "-1d" }',
				`campaigns:\n  - ${JSON.stringify(campaign)}`,
			].join('\n'),
		);
		let problems: string[] = [];
		try {
			loadWorkerConfig(path, {});
		} catch (error) {
			expect(error).toBeInstanceOf(ConfigError);
			problems = (error as ConfigError).problems;
		}
		const examples = 'a duration such as 2h, 30m, 90s, 1.5d or 500ms';
		expect(problems.sort()).toEqual([
			`campaigns[0].catchUp: must be none, or ${examples}`,
			`campaigns[0].decideAfter: must be ${examples}`,
			`events.maxAge: must be ${examples}`,
			`links.ttl: must be ${examples}`,
		]);
	});

	it('the API names decideAfter, and takes what the config and the CLI take', () => {
		const bad = checkCampaignSettings({
			property: PROPERTY,
			text: 'a',
			variants: ['b'],
			decideAfter: '2 hours',
		});
		expect(bad.problems).toEqual([
			{
				field: 'decideAfter',
				message:
					'decideAfter must be a duration such as 2h, 30m, 90s, 1.5d or 500ms (got "2 hours")',
			},
		]);
		const ok = checkCampaignSettings({
			property: PROPERTY,
			text: 'a',
			variants: ['b'],
			decideAfter: '500ms',
		});
		expect(ok.problems).toEqual([]);
		expect(ok.settings?.decideAfter).toBe('500ms');
	});
});

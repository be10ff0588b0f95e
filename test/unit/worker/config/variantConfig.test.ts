import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../worker/src/config/configError';
import { loadWorkerConfig } from '../../../../worker/src/config/loadWorkerConfig';
import { tempDir } from '../../../support/tempDir';

const SID = '11111111-1111-4111-8111-111111111111';
const dir = tempDir('cloudtel-variant-config-');

const config = (fields: Record<string, unknown>, links = '') => {
	const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
	writeFileSync(
		path,
		`provider: { baseUrl: "http://127.0.0.1:4010", accountSid: AC1, authToken: tok }
server: { publicUrl: "https://worker.example.com", secret: "0123456789abcdef" }
${links}campaigns:
  - ${JSON.stringify({ name: 'c', cron: '0 9 * * 1', csv: 'a.csv', property: SID, text: 'hi https://a.example.com', variants: ['ho https://b.example.com'], ...fields })}
`,
	);
	return path;
};

describe('a configured variant campaign', () => {
	it('refuses winnerBy clicks without trackLinks, naming both, at load', () => {
		let problems: string[] = [];
		try {
			loadWorkerConfig(config({ winnerBy: 'clicks' }), {});
		} catch (error) {
			expect(error).toBeInstanceOf(ConfigError);
			problems = (error as ConfigError).problems;
		}
		expect(problems).toEqual([
			'campaigns[0].winnerBy: clicks needs trackLinks: true: only tracked links are counted (or judge by replies, delivered or optouts)',
		]);
		const ok = config(
			{ winnerBy: 'clicks', trackLinks: true },
			'links: { baseUrl: "https://go.example.com/l" }\n',
		);
		expect(loadWorkerConfig(ok, {}).campaigns[0]).toMatchObject({ winnerBy: 'clicks' });
	});
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../worker/src/config/configError';
import { loadWorkerConfig } from '../../../../worker/src/config/loadWorkerConfig';
import { tempDir } from '../../../support/tempDir';

const dir = tempDir('cloudtel-permanent-');
let n = 0;

function load(extra: string) {
	const path = join(dir, `c${n++}.yaml`);
	writeFileSync(
		path,
		`provider: { baseUrl: "http://127.0.0.1:4010", accountSid: AC1, authToken: tok }
server: { publicUrl: "https://worker.example.com", secret: "0123456789abcdef" }
${extra}`,
	);
	return loadWorkerConfig(path, {});
}

describe('worker config: suppressPermanentFailures', () => {
	it('is on by default for UNKNOWN_SUBSCRIBER; false turns it off; codes replace the list', () => {
		expect(load('').suppressPermanentFailures).toEqual(['UNKNOWN_SUBSCRIBER']);
		expect(load('suppressPermanentFailures: false\n').suppressPermanentFailures).toEqual([]);
		expect(
			load('suppressPermanentFailures: { codes: [UNKNOWN_SUBSCRIBER, NUMBER_BARRED] }\n')
				.suppressPermanentFailures,
		).toEqual(['UNKNOWN_SUBSCRIBER', 'NUMBER_BARRED']);
	});

	it('refuses an empty code list, naming the field', () => {
		let problems: string[] = [];
		try {
			load('suppressPermanentFailures: { codes: [] }\n');
		} catch (error) {
			problems = (error as ConfigError).problems;
		}
		expect(problems.join('\n')).toContain('suppressPermanentFailures');
	});
});

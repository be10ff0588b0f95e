// Every ```sh block of README.md and sandbox/README.md runs, in order, as a reader would type it
// (readmeReader.ts); worker/README.md has a file of its own (workerReadme.test.ts).
import { beforeAll, describe, it } from 'vitest';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/freshBuild';
import { newReader, runReadme } from './readmeReader';

beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);

describe('every shell block of README.md and sandbox/README.md runs', () => {
	for (const name of ['README.md', 'sandbox/README.md'])
		it(
			name,
			async () => {
				await runReadme(name, await newReader());
			},
			60_000,
		);
});

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each test file's seconds in a recent CI run (`npm run test:durations` writes it). */
export const DURATIONS_FILE = join(__dirname, 'fileDurations.json');

/**
 * Starts the slowest files first, by their time in a recent run, so that the run ends on
 * short ones with every pool busy. vitest's own order on a clean clone (no results cache)
 * is by file size, which put the small wrappers of long scenarios (`*.postgres.test.ts`)
 * last: a minute and a half at the end with a core idle. A file not listed yet (new) goes
 * first, as vitest does: it may be slow.
 */
export default class FileSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const seconds = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
		const of = (f: TestSpecification) =>
			seconds[relative(process.cwd(), f.moduleId)] ?? Number.POSITIVE_INFINITY;
		return [...files].sort((a, b) => of(b) - of(a));
	}
}

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Each test file's seconds in a recent CI run (`npm run test:durations` writes it). */
export const DURATIONS_FILE = join(__dirname, 'fileDurations.json');

/**
 * The order files start in, from their times in a recent run. The run's first three minutes
 * are its busiest: the soak stops its own Postgres and kills its workers, and e2e starts n8n
 * (four processes at once for queue mode). A long file that starts then can pass the 60 s a
 * file may take (workerApi.postgres 60.0 s and recoverable 59.5 s, about 20 s each alone), a
 * short one stays far from it. So:
 *
 * 1. The shortest files first, until about three minutes of every pool's work is handed out.
 * 2. Then the slowest first, so that the run ends on short ones with every pool busy. (vitest's
 *    own order on a clean clone is by file size, which put the small wrappers of long scenarios,
 *    `*.postgres.test.ts`, last: a minute and a half at the end with a core idle.) A file not
 *    listed yet (new) is taken for a slow one: it may be.
 * 3. Files that doubled their time beside others doing the same (LATE: those that stop
 *    Postgres or kill workers against timed back-offs; installedCli's npm install, 7 s quiet;
 *    worker/README.md's blocks, 18 s quiet, 66.8 s on the check machine) each followed by
 *    enough other work to keep the other pools busy while it runs, so they seldom meet.
 */
const LATE = [
	/^test\/integration\/faults\//,
	/^test\/integration\/api\/apiCancelCrash\./,
	/^test\/integration\/worker\/installedCli\./,
	/^test\/integration\/docs\/workerReadme\./,
];
/** The busy start's work on each pool: the soak's two minutes and e2e's n8n starts. */
const EARLY_SECONDS = 180;

export default class FileSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const seconds = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
		const name = (f: TestSpecification) => relative(process.cwd(), f.moduleId);
		const of = (f: TestSpecification) => seconds[name(f)] ?? Number.POSITIVE_INFINITY;
		const pools = Number(this.ctx.config.maxWorkers) || 3;
		// The durations file holds about half of a file's time in CI (a quieter run wrote it).
		const early: TestSpecification[] = [];
		let handed = 0;
		for (const f of [...files].sort((a, b) => of(a) - of(b))) {
			if (handed + of(f) > (EARLY_SECONDS * pools) / 2) break;
			early.push(f);
			handed += of(f);
		}
		const sorted = files.filter((f) => !early.includes(f)).sort((a, b) => of(b) - of(a));
		const late = sorted.filter((f) => LATE.some((r) => r.test(name(f))));
		const rest = sorted.filter((f) => !late.includes(f));
		const order = [...early];
		let at = 0;
		for (const file of late) {
			order.push(file);
			for (let work = 0; at < rest.length && work < of(file) * (pools - 1); at++) {
				order.push(rest[at]);
				work += of(rest[at]);
			}
		}
		return [...order, ...rest.slice(at)];
	}
}

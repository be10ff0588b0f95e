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
 *
 * The soak runs beside vitest for its first two minutes, stopping its own Postgres and
 * killing its workers, while e2e starts n8n. Files that do the same against timed back-offs
 * doubled their time when they started then (apiCancelCrash 58.5 s of its 60), and so did
 * installedCli's npm install (7 s on a quiet machine, 30 s then), and worker/README.md's
 * blocks (18 s quiet, 66.8 s then on the check machine): these (LATE) start once
 * about that much of the other files' work is handed out, each beside other files.
 */
const LATE = [
	/^test\/integration\/faults\//,
	/^test\/integration\/api\/apiCancelCrash\./,
	/^test\/integration\/worker\/installedCli\./,
	/^test\/integration\/docs\/workerReadme\./,
];
const SOAK_SECONDS = 120;

export default class FileSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const seconds = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
		const name = (f: TestSpecification) => relative(process.cwd(), f.moduleId);
		const of = (f: TestSpecification) => seconds[name(f)] ?? Number.POSITIVE_INFINITY;
		const sorted = [...files].sort((a, b) => of(b) - of(a));
		const late = sorted.filter((f) => LATE.some((r) => r.test(name(f))));
		const rest = sorted.filter((f) => !late.includes(f));
		// The work handed out before the late files: the soak's minutes on every pool.
		const pools = Number(this.ctx.config.maxWorkers) || 3;
		const before = SOAK_SECONDS * pools;
		let at = 0;
		for (let handed = 0; at < rest.length && handed < before; at++) handed += of(rest[at]);
		const order = rest.slice(0, at);
		// Then each late file followed by enough other work to keep the other pools busy while it
		// runs, so that late files seldom run side by side (two at once took 57 s and 65 s of 60).
		for (const file of late) {
			order.push(file);
			for (let handed = 0; at < rest.length && handed < of(file) * (pools - 1); at++) {
				order.push(rest[at]);
				handed += of(rest[at]);
			}
		}
		return [...order, ...rest.slice(at)];
	}
}

import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { DURATIONS_FILE } from './fileSequencer';

/** The most one test file may take in CI: a longer one holds the run's tail. */
export const FILE_BUDGET_MS = 60_000;

/** A file's own wall time: its set-up, its import and its tests with their hooks. */
export function fileMs(module: TestModule): number {
	const d = module.diagnostic();
	return d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}

/**
 * Prints the ten slowest test files at the end of a run, and under CI fails the run for any
 * file over FILE_BUDGET_MS, naming it: the suite's budget holds only while each file does.
 */
export default class BudgetReporter implements Reporter {
	private readonly endedAt = new Map<string, number>();
	/** Files the run may run at once: vitest's maxWorkers, as vitest.config.mts set it. */
	private atOnce = 1;

	onInit(vitest: Vitest): void {
		this.atOnce = vitest.config.maxWorkers;
	}

	onTestModuleEnd(module: TestModule): void {
		this.endedAt.set(module.moduleId, performance.now());
	}

	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const timed = modules
			.map((m) => ({ file: relative(process.cwd(), m.moduleId), ms: fileMs(m) }))
			.sort((a, b) => b.ms - a.ms);
		const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
		console.log('\nSlowest test files:');
		for (const { file, ms } of timed.slice(0, 10))
			console.log(`  ${seconds(ms).padStart(8)}  ${file}`);
		this.printTail(modules);
		if (process.env.CLOUDTEL_WRITE_DURATIONS === '1') this.writeDurations(timed);
		const over = timed.filter((t) => t.ms > FILE_BUDGET_MS);
		if (over.length === 0) return;
		const enforced = process.env.CI === 'true';
		for (const { file, ms } of over)
			console.log(
				`${enforced ? 'FAIL' : 'warning'}: ${file} took ${seconds(ms)}, over the ${FILE_BUDGET_MS / 1000} s a test file may take`,
			);
		if (enforced) process.exitCode = 1;
	}

	/**
	 * How long the run ended with fewer files running than it may run at once: a tail that
	 * grows means a slow file started late and should be split, or started first.
	 */
	private printTail(modules: ReadonlyArray<TestModule>): void {
		const spans = modules
			.filter((m) => this.endedAt.has(m.moduleId))
			.map((m) => {
				const end = this.endedAt.get(m.moduleId)!;
				return { start: end - fileMs(m), end };
			});
		if (spans.length === 0) return;
		const last = Math.max(...spans.map((s) => s.end));
		const atOnce = this.atOnce;
		// Walk back from the end until as many files as may run at once were running.
		let tailFrom = last;
		for (let t = last; t > 0; t -= 1000) {
			if (spans.filter((s) => s.start <= t && s.end >= t).length >= atOnce) break;
			tailFrom = t;
		}
		console.log(
			`Tail: the run's last ${((last - tailFrom) / 1000).toFixed(0)} s ran fewer than ${atOnce} files at once`,
		);
	}

	/** The order the next runs start files in (fileSequencer.ts), from a whole run's times. */
	private writeDurations(timed: { file: string; ms: number }[]): void {
		const seconds = Object.fromEntries(
			[...timed]
				.sort((a, b) => a.file.localeCompare(b.file))
				.map((t) => [t.file, Math.round(t.ms / 100) / 10]),
		);
		writeFileSync(DURATIONS_FILE, `${JSON.stringify(seconds, null, '\t')}\n`);
		console.log(
			`File times for the next runs' order written to ${relative(process.cwd(), DURATIONS_FILE)}`,
		);
	}
}

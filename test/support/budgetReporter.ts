import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

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
	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const timed = modules
			.map((m) => ({ file: relative(process.cwd(), m.moduleId), ms: fileMs(m) }))
			.sort((a, b) => b.ms - a.ms);
		const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
		console.log('\nSlowest test files:');
		for (const { file, ms } of timed.slice(0, 10))
			console.log(`  ${seconds(ms).padStart(8)}  ${file}`);
		const over = timed.filter((t) => t.ms > FILE_BUDGET_MS);
		if (over.length === 0) return;
		const enforced = process.env.CI === 'true';
		for (const { file, ms } of over)
			console.log(
				`${enforced ? 'FAIL' : 'warning'}: ${file} took ${seconds(ms)}, over the ${FILE_BUDGET_MS / 1000} s a test file may take`,
			);
		if (enforced) process.exitCode = 1;
	}
}

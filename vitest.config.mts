import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import FileSequencer from './test/support/fileSequencer';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		// The nodes run as CommonJS inside n8n; test them against the same build of n8n-workflow
		// (its ESM build also ships source maps that point at files it does not include).
		alias: { 'n8n-workflow': require.resolve('n8n-workflow') },
	},
	test: {
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', '**/node_modules/**'],
		// One embedded Postgres for the whole run; each test file makes its own database in it.
		globalSetup: ['test/support/postgres/globalSetup.ts'],
		pool: 'forks',
		// Several files at once: most of a file's time is spent waiting on the processes it
		// starts (a worker, a sandbox, Postgres), so on two cores three files keep both busy
		// without starving any one of them. Each pool draws ports of its own
		// (test/support/freePort.mjs); the run's temp folder goes with it (runTempDir.ts).
		maxWorkers: Number(process.env.CLOUDTEL_TEST_FILES_AT_ONCE ?? 3),
		minWorkers: 1,
		// The slowest files first (test/support/fileSequencer.ts says why).
		sequence: { sequencer: FileSequencer },
		testTimeout: 60_000,
		hookTimeout: 60_000,
		reporters: ['default', './test/support/budgetReporter.ts'],
	},
});

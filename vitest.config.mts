import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

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
		// Most test files spend their time waiting on the processes they start (worker,
		// sandbox, Postgres, timers), not on the CPU: three files at once on two cores take
		// about half the time of one at a time (vitest's default here, cores less one).
		poolOptions: { forks: { minForks: 1, maxForks: 3 } },
		testTimeout: 60_000,
		hookTimeout: 60_000,
		reporters: ['default'],
	},
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', '**/node_modules/**'],
		pool: 'forks',
		testTimeout: 60_000,
		hookTimeout: 60_000,
		reporters: ['default'],
	},
});

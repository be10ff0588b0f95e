// The house rules for everything that does not ship inside n8n: the worker, the sandbox, the
// tests, the benches and the scripts. Each of those folders has an eslint.config.mjs of one
// line that calls this; ESLint finds it from the linted file (ESLINT_FLAGS=
// unstable_config_lookup_from_file, which the repository's .npmrc sets for whatever npm or npx
// starts), because the root eslint.config.mjs must stay n8n's default for n8n Cloud
// verification (docs/internals.md, "n8n package: lint, verification and screenshots").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = Object.fromEntries(
	[
		'process',
		'console',
		'Buffer',
		'setTimeout',
		'clearTimeout',
		'setInterval',
		'clearInterval',
		'setImmediate',
		'clearImmediate',
		'URL',
		'URLSearchParams',
		'TextEncoder',
		'TextDecoder',
		'AbortController',
		'AbortSignal',
		'fetch',
		'btoa',
		'atob',
		'structuredClone',
		'performance',
		'__dirname',
		'require',
	]
		.map((name) => [name, 'readonly'])
		.concat([['module', 'writable']]),
);

// Read once, here: typescript-eslint notes the folder of each eslint.config file that reads
// it, and with more than one noted, the parse that n8n's rules run on a credential file
// (no-credential-reuse) throws, so the nodes would seem to use credentials not their own.
const TS_RECOMMENDED = tseslint.configs.recommended;

/**
 * The config of the folder `dir` (its `import.meta.dirname`: typescript-eslint cannot tell
 * which of several configs it runs under); `tests` lets its .ts files use `any` (they read
 * arbitrary JSON answers from real servers).
 */
export function houseConfig(dir, { tests = false } = {}) {
	return tseslint.config(
		{ ignores: ['**/dist/**', '**/node_modules/**', '**/.n8n/**', 'out/**'] },
		js.configs.recommended,
		...TS_RECOMMENDED,
		{
			languageOptions: { globals: NODE_GLOBALS, parserOptions: { tsconfigRootDir: dir } },
			rules: {
				'@typescript-eslint/no-unused-vars': [
					'error',
					{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
				],
			},
		},
		tests ? { files: ['**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } } : {},
	);
}

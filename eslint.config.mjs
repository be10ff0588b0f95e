import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

export default tseslint.config(
	{
		ignores: ['**/dist/**', '**/node_modules/**', 'test/e2e/.n8n/**', 'coverage/**', 'bench/out/**'],
	},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: {
			globals: {
				process: 'readonly',
				console: 'readonly',
				Buffer: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				setInterval: 'readonly',
				clearInterval: 'readonly',
				setImmediate: 'readonly',
				URL: 'readonly',
				URLSearchParams: 'readonly',
				TextEncoder: 'readonly',
				TextDecoder: 'readonly',
				AbortController: 'readonly',
				fetch: 'readonly',
				btoa: 'readonly',
				atob: 'readonly',
				structuredClone: 'readonly',
				performance: 'readonly',
				__dirname: 'readonly',
				require: 'readonly',
				module: 'writable',
			},
		},
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		// Tests read arbitrary JSON answers from real servers; `any` is the honest type there.
		files: ['test/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
	{
		// api/ ships inside n8n: it may import nothing but its own files.
		files: ['api/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.{1,2}/)', message: 'api/ imports nothing outside itself.' }] }],
			'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname'],
		},
	},
	{
		// The n8n side: n8n-workflow and api/ only, and n8n's own community-node rules.
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{
		// n8n's package.json rules read the manifest as one object expression, parsed as
		// n8n's own node-cli config does; a bare object is the whole point of a JSON file,
		// so the rule against unused expressions does not apply to it.
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: { '@typescript-eslint/no-unused-expressions': 'off', 'no-unused-expressions': 'off' },
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{ patterns: [{ regex: '^(?!n8n-workflow$|\\.{1,2}/)', message: 'nodes/ and credentials/ import only n8n-workflow and api/.' }] },
			],
		},
	},
);

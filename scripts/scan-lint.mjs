// `npm run lint:scan`: lints the n8n package with the rules of n8n's verification scan, as
// @n8n/node-cli's config sets them: @n8n/eslint-plugin-community-nodes' recommended set,
// eslint-plugin-n8n-nodes-base's `community` (package.json), `credentials` and `nodes` sets,
// and no-console. Twice: over the sources, and over the unpacked `npm pack` tarball, which
// is what the scan and n8n users actually get. Any error fails the run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { ESLint } from 'eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The scan's rule sets for one tree. `code` globs the node and credential files (TypeScript
 * in the sources, compiled JavaScript in the tarball); node-cli turns the same few
 * nodes-set rules off, because they assume n8n's own built-in nodes.
 */
function scanConfig(credentials, nodes, extraNodeRules = {}) {
	const community = n8nCommunityNodesPlugin.configs.recommended;
	return [
		{
			files: [...credentials, ...nodes],
			...community,
			languageOptions: { parser: tseslint.parser, sourceType: 'module' },
			plugins: { ...community.plugins, 'n8n-nodes-base': n8nNodesBase },
			rules: { ...community.rules, 'no-console': 'error' },
		},
		{
			files: ['package.json'],
			...community,
			plugins: { ...community.plugins, 'n8n-nodes-base': n8nNodesBase },
			languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
			rules: { ...community.rules, ...n8nNodesBase.configs.community.rules },
		},
		{
			files: credentials,
			rules: {
				...n8nNodesBase.configs.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: nodes,
			rules: {
				...n8nNodesBase.configs.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
				...extraNodeRules,
			},
		},
	];
}

async function lint(label, cwd, credentials, nodes, extraNodeRules) {
	const config = scanConfig(credentials, nodes, extraNodeRules);
	const eslint = new ESLint({ cwd, overrideConfigFile: true, overrideConfig: config, errorOnUnmatchedPattern: true });
	const results = await eslint.lintFiles(['package.json', ...credentials, ...nodes]);
	const errors = results.reduce((n, r) => n + r.errorCount, 0);
	const warnings = results.reduce((n, r) => n + r.warningCount, 0);
	const output = (await eslint.loadFormatter('stylish')).format(results);
	if (output) console.log(output);
	console.log(`scan lint, ${label}: ${results.length} files, ${errors} errors, ${warnings} warnings`);
	return errors;
}

let errors = await lint('sources', root, ['credentials/**/*.ts'], ['nodes/**/*.ts']);

// The tarball: `npm pack` of the built package, unpacked as n8n's scan unpacks it.
const work = mkdtempSync(join(tmpdir(), 'cloudtel-scan-'));
try {
	const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
	execFileSync('tar', ['xzf', join(work, packed[0].filename), '-C', work]);
	// Every other rule applies to the compiled files as written; only the one asking for a
	// `.node.ts` file name cannot, since a tarball holds what tsc made of it: `.node.js`.
	const compiled = { 'n8n-nodes-base/node-filename-against-convention': 'off' };
	errors += await lint(`tarball ${packed[0].filename}`, join(work, 'package'), ['dist/credentials/**/*.js'], ['dist/nodes/**/*.js'], compiled);
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(errors > 0 ? 1 : 0);

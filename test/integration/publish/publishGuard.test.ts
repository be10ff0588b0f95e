import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm publish` from a developer's machine: both packages are published with provenance
 * only from CI (.github/workflows/publish.yml), so a local publish must stop and say why
 * before it builds anything (a build would rewrite dist/ for nothing). --dry-run runs the
 * same lifecycle scripts and never uploads.
 */
const ROOT = resolve(__dirname, '../../..');

function publish(cwd: string, args: string[] = []) {
	// Whatever CI this runs in, it is not a publish with an OIDC identity.
	const env = {
		...process.env,
		ACTIONS_ID_TOKEN_REQUEST_URL: '',
		CI_JOB_JWT_V2: '',
		NPM_ID_TOKEN: '',
		CLOUDTEL_PUBLISH_WITHOUT_PROVENANCE: '',
	};
	return spawnSync('npm', ['publish', '--dry-run', ...args], {
		cwd,
		env,
		encoding: 'utf8',
		timeout: 60_000,
	});
}

describe('a local npm publish', () => {
	it.each([
		['n8n-nodes-cloudtel', ROOT, [], /no --provenance was given/],
		['n8n-nodes-cloudtel', ROOT, ['--provenance'], /not a CI run with an OIDC identity/],
		['@cloudtel/worker', join(ROOT, 'worker'), [], /no --provenance was given/],
		[
			'@cloudtel/worker',
			join(ROOT, 'worker'),
			['--provenance'],
			/not a CI run with an OIDC identity/,
		],
	])(
		'of %s (%s %j) stops before building, saying provenance needs CI',
		(name, cwd, args, reason) => {
			const before = statSync(join(ROOT, 'dist')).mtimeMs;
			const result = publish(cwd, args);
			expect(result.status).not.toBe(0);
			expect(result.stderr).toContain(`npm publish of ${name} stopped before building anything`);
			expect(result.stderr).toMatch(reason);
			expect(result.stderr).toMatch(/creating a GitHub\s+release/);
			expect(statSync(join(ROOT, 'dist')).mtimeMs).toBe(before);
		},
	);
});

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../support/freshBuild';

const ROOT = resolve(__dirname, '../../..');

beforeAll(() => ensureBuilt(), 600_000);

describe('npm run demo', () => {
	it('starts at once on a built checkout: no build first', () => {
		const started = Date.now();
		const r = spawnSync('npm', ['run', 'demo', '--', '--help'], {
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 20_000,
		});
		expect(r.status, r.stderr).toBe(0);
		expect(r.stdout + r.stderr).not.toMatch(/build\.mjs|building/);
		expect(r.stdout).toContain('demo');
		expect(Date.now() - started).toBeLessThan(20_000);
	}, 30_000);
});

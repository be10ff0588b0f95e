import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bufferedLines } from '../../../worker/src/daemon/bufferedLines';
import { ensureBuilt, ROOT } from './harness';

const BUILT = join(ROOT, 'worker/dist/worker/src/daemon/bufferedLines.js');
beforeAll(ensureBuilt, 180_000);

function run(script: string) {
	return spawnSync(
		process.execPath,
		[
			'-e',
			`const { bufferedLines } = require(${JSON.stringify(BUILT)}); const log = bufferedLines((t) => process.stdout.write(t)); ${script}`,
		],
		{ encoding: 'utf8' },
	);
}

describe('the daemon log lines', () => {
	it('are written once per turn of the event loop, in order', async () => {
		const writes: string[] = [];
		const log = bufferedLines((text) => writes.push(text));
		for (let i = 0; i < 100; i++) log(`line ${i}\n`);
		expect(writes).toEqual([]);
		await new Promise((r) => setImmediate(r));
		expect(writes).toEqual([Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('')]);
		log('next\n');
		await new Promise((r) => setImmediate(r));
		expect(writes).toHaveLength(2);
	});

	it('are all written when the process exits at once: process.exit, or a crash', () => {
		const exit = run(
			`log('a\\n'); setImmediate(() => { log('b\\n'); log('c\\n'); process.exit(3); });`,
		);
		expect(exit.status).toBe(3);
		expect(exit.stdout).toBe('a\nb\nc\n');
		const crash = run(
			`log('before the crash\\n'); setImmediate(() => { log('last words\\n'); throw new Error('boom'); });`,
		);
		expect(crash.status).toBe(1);
		expect(crash.stdout).toBe('before the crash\nlast words\n');
		expect(crash.stderr).toMatch(/boom/);
	});
});

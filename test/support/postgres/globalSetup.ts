import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { runTempDir } from '../runTempDir';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The embedded Postgres of this test run, as a URL of its maintenance database. */
		postgresUrl: string;
	}
}

/**
 * One real Postgres for the whole test run; each test file makes its own database in it.
 * It runs in a child process (embeddedPostgres.mjs says why), which stops the server when
 * this process goes, however it goes, because its stdin closes.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const removeTemp = runTempDir();
	const child = spawn(process.execPath, [join(__dirname, 'embeddedPostgres.mjs')], {
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	const lines = createInterface({ input: child.stdout });
	const ready = new Promise<string>((resolve, reject) => {
		lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
		child.once('exit', (code) =>
			reject(new Error(`embedded Postgres exited (${code}) before it was ready`)),
		);
	});
	project.provide('postgresUrl', await ready);
	return async () => {
		const exited = once(child, 'exit');
		child.kill('SIGTERM');
		await exited;
		removeTemp();
	};
}

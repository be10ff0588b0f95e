// Starts the built sandbox as a process of its own, so a load generator in this process
// does not share its event loop. Resolves with its URL and demo account.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function startSandboxProcess(flags = []) {
	// BENCH_PROF=DIR: the sandbox writes its CPU profile there too.
	const profile = process.env.BENCH_PROF
		? [
				'--cpu-prof',
				'--cpu-prof-dir',
				process.env.BENCH_PROF,
				'--cpu-prof-name',
				'sandbox.cpuprofile',
			]
		: [];
	const child = spawn(
		process.execPath,
		[...profile, join(root, 'sandbox/dist/sandbox/src/main.js'), '--port', '0', '--json', ...flags],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const [chunk] = await once(child.stdout, 'data');
	const info = JSON.parse(chunk.toString().split('\n')[0]);
	const auth = `Basic ${Buffer.from(`${info.AccountSid}:${info.AuthToken}`).toString('base64')}`;
	return {
		...info,
		auth,
		child,
		async stop() {
			child.kill('SIGTERM');
			await once(child, 'exit');
		},
	};
}

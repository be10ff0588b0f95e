// A real `cloudtel worker` (worker/dist, the CLI a user runs) against the sandbox, with its
// campaign API on (server.apiToken), for the scenarios and the bench that hand campaigns to it.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './n8n.mjs';
import { repoRoot } from './package.mjs';
import { spawnTracked, stop } from './procs.mjs';

export const WORKER_API_TOKEN = 'e2e-worker-api-token-0123456789';
const CALLBACK_SECRET = 'e2e-worker-callback-secret-0123';

/**
 * Starts the worker with a config of its own in `dir` (database there too) and resolves once
 * it logs "worker started". `lines` holds every log line it printed (JSON), for checks.
 */
export async function startCloudtelWorker({ dir, sandbox, config = {}, timeoutMs = 60_000 }) {
	const port = await freePort();
	const file = join(dir, 'cloudtel-worker.json');
	writeFileSync(
		file,
		JSON.stringify({
			db: join(dir, 'cloudtel-worker.db'),
			server: {
				publicUrl: `http://127.0.0.1:${port}`,
				port,
				host: '127.0.0.1',
				secret: CALLBACK_SECRET,
				apiToken: WORKER_API_TOKEN,
			},
			// Events wait out an n8n that is stopped for a while: a restart takes up to a minute
			// here and far longer on a loaded machine; 60 attempts at 5 s (5 min) could run out
			// before it is back, and an event given up never reaches the trigger.
			outbox: { backoffMs: 500, maxBackoffMs: 5000, maxAttempts: 1000 },
			log: { phoneNumbers: 'full' },
			// The campaigns' events URLs are the local n8n's: an API caller's URL may reach this machine only so.
			outbound: { allow: ['127.0.0.1', 'localhost'] },
			...config,
		}),
	);
	const env = {
		...process.env,
		CLOUDTEL_BASE_URL: sandbox.url,
		CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
		CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
	};
	const child = spawnTracked(
		process.execPath,
		[join(repoRoot, 'worker', 'bin', 'cloudtel.js'), 'worker', '--config', file],
		{ env },
	);
	const lines = [];
	let output = '';
	child.stderr.on('data', (chunk) => (output += chunk));
	const reader = createInterface({ input: child.stdout });
	await new Promise((resolve, reject) => {
		const timer = setTimeout(
			() =>
				reject(
					new Error(
						`cloudtel worker not started after ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}\n${output}`,
					),
				),
			timeoutMs,
		);
		reader.on('line', (line) => {
			lines.push(line);
			// Kept beside its database, for a look after a failed run (CLOUDTEL_E2E_KEEP=1).
			appendFileSync(join(dir, 'worker.log'), `${line}\n`);
			if (line.includes('"worker started"')) {
				clearTimeout(timer);
				resolve();
			}
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(
				new Error(`cloudtel worker exited (${code}):\n${lines.slice(-20).join('\n')}\n${output}`),
			);
		});
	});
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		port,
		token: WORKER_API_TOKEN,
		lines,
		callbacks: `${url}/callbacks/${CALLBACK_SECRET}`,
		/** The campaign API as a client would call it (JSON in, JSON out). */
		async api(method, path, body) {
			const res = await fetch(`${url}${path}`, {
				method,
				headers: {
					authorization: `Bearer ${WORKER_API_TOKEN}`,
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await res.text();
			let parsed = text;
			try {
				parsed = text ? JSON.parse(text) : undefined;
			} catch {
				// not JSON
			}
			return { status: res.status, body: parsed };
		},
		stop: () => stop(child, 10_000),
	};
}

/** The n8n credential for this worker's API. */
export function workerCredential(id, worker, name = 'CloudTel worker') {
	return { id, name, type: 'cloudTelWorkerApi', data: { url: worker.url, apiToken: worker.token } };
}

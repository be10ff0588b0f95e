// Issue 6 (1): the worker's messages/s against the raw ceiling, autocannon posting ready
// 1000-message batches to the same sandbox build. Target: worker >= 0.8x the ceiling.
import autocannon from 'autocannon';
import { startSandboxProcess } from './lib/sandboxProcess.mjs';
import { benchFile, e164Csv, runCli } from './lib/workerCli.mjs';

const ROWS = Number(process.env.BENCH_WORKER_ROWS ?? 200_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 4;

const batch = { Messages: Array.from({ length: 1000 }, (_, i) => ({ To: `+6141${String(1_000_000 + i).slice(-7)}`, Text: `Hello N${i}, this is message for +6141${String(1_000_000 + i).slice(-7)}`, ExternalId: `bench:${i + 2}` })) };

async function ceiling() {
	const sandbox = await startSandboxProcess();
	try {
		const r = await autocannon({
			url: `${sandbox.url}/v2/Properties/${sandbox.PropertySid}/BatchMessages`,
			method: 'POST',
			headers: { authorization: sandbox.auth, 'content-type': 'application/json' },
			body: JSON.stringify(batch),
			connections: CONNECTIONS,
			duration: DURATION,
		});
		return { messagesPerSecond: r.requests.average * 1000, non2xx: r.non2xx };
	} finally {
		await sandbox.stop();
	}
}

async function worker(csv) {
	const sandbox = await startSandboxProcess();
	try {
		const db = benchFile(`throughput-${Date.now()}.db`);
		const run = await runCli(
			['campaign', 'run', '--csv', csv, '--text', 'Hello {{Name}}, this is message for {{Phone}}', '--property', sandbox.PropertySid, '--db', db, '--name', 'bench', '--rate', '0', '--batch-size', '1000', '--concurrency', String(CONNECTIONS)],
			{ CLOUDTEL_BASE_URL: sandbox.url, CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid, CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken },
		);
		if (run.code !== 0) throw new Error(`worker exited ${run.code}: ${run.stderr}`);
		return run;
	} finally {
		await sandbox.stop();
	}
}

const csv = e164Csv(`throughput-${ROWS}.csv`, ROWS);
const raw = await ceiling();
const run = await worker(csv);
const s = run.summary;
const endToEnd = s.rows.accepted / run.seconds;
console.log(`worker throughput, ${ROWS} rows, batches of 1000, ${CONNECTIONS} in flight`);
console.log(`  raw ceiling (autocannon, ${DURATION} s)  ${Math.round(raw.messagesPerSecond).toString().padStart(8)} messages/s  non-2xx ${raw.non2xx}`);
console.log(`  worker, send stage              ${Math.round(s.sendRate).toString().padStart(8)} messages/s  ratio ${(s.sendRate / raw.messagesPerSecond).toFixed(2)}x (target >= 0.8x)`);
console.log(`  worker, whole run (read + send) ${Math.round(endToEnd).toString().padStart(8)} messages/s  ratio ${(endToEnd / raw.messagesPerSecond).toFixed(2)}x  (${run.seconds.toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB)`);

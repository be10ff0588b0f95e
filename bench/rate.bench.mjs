// Issue 6 (3): the sandbox limiting at 100 messages/s, the worker pacing at --rate 100.
// Targets: achieved rate / 100 >= 0.95, and at most 1% of requests answered 429.
import { startSandboxProcess } from './lib/sandboxProcess.mjs';
import { benchFile, e164Csv, runCli } from './lib/workerCli.mjs';

const ROWS = Number(process.env.BENCH_RATE_ROWS ?? 1500);
const RATE = 100;

const sandbox = await startSandboxProcess(['--rate-limit', String(RATE)]);
try {
	const csv = e164Csv(`rate-${ROWS}.csv`, ROWS);
	const run = await runCli(
		[
			'campaign',
			'run',
			'--csv',
			csv,
			'--text',
			'Hi {{Name}}',
			'--property',
			sandbox.PropertySid,
			'--db',
			benchFile(`rate-${Date.now()}.db`),
			'--name',
			'rate',
			'--rate',
			String(RATE),
		],
		{
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.AuthToken,
		},
	);
	if (run.code !== 0) throw new Error(`worker exited ${run.code}: ${run.stderr}`);
	const s = run.summary;
	const chunk = Math.ceil(RATE / 10);
	const batches = Math.ceil(ROWS / chunk);
	const limited = run.events.filter((e) => e.event === 'retry' && e.status === 429).length;
	const requests = batches + run.events.filter((e) => e.event === 'retry').length;
	console.log(
		`pacing: sandbox --rate-limit ${RATE}, worker --rate ${RATE}, ${ROWS} messages in batches of ${chunk}`,
	);
	console.log(
		`  achieved ${s.sendRate.toFixed(1)} messages/s; achieved / ${RATE} = ${(s.sendRate / RATE).toFixed(3)} (target >= 0.95)`,
	);
	console.log(
		`  429 answers ${limited} of ${requests} requests = ${((100 * limited) / requests).toFixed(2)}% (target <= 1%)`,
	);
	console.log(
		`  accepted ${s.rows.accepted}, uncertain ${s.rows.uncertain}, pending ${s.rows.pending}`,
	);
} finally {
	await sandbox.stop();
}

// Issue 3: the sandbox's own ceiling on loopback, single sends and 1000-message batches,
// in messages per second, measured with autocannon against a sandbox process.
import autocannon from 'autocannon';
import { startSandboxProcess } from './lib/sandboxProcess.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);

async function load(sandbox, path, body, connections) {
	const result = await autocannon({
		url: sandbox.url + path,
		method: 'POST',
		headers: { authorization: sandbox.auth, 'content-type': 'application/json' },
		body: JSON.stringify(body),
		connections,
		duration: DURATION,
	});
	return {
		requestsPerSecond: result.requests.average,
		non2xx: result.non2xx,
		errors: result.errors,
		p99: result.latency.p99,
	};
}

const single = { To: '+61412345678', Text: 'Benchmark message', ExternalId: 'bench' };
const batch = {
	Messages: Array.from({ length: 1000 }, (_, i) => ({
		To: `+614123${String(i).padStart(5, '0')}`,
		Text: 'Benchmark message',
		ExternalId: `bench:${i}`,
	})),
};

const sandbox = await startSandboxProcess();
try {
	const one = await load(sandbox, `/v2/Properties/${sandbox.PropertySid}/Messages`, single, 32);
	const many = await load(sandbox, `/v2/Properties/${sandbox.PropertySid}/BatchMessages`, batch, 4);
	const rows = [
		['single send', one.requestsPerSecond, one.requestsPerSecond, one],
		['batch of 1000', many.requestsPerSecond, many.requestsPerSecond * 1000, many],
	];
	console.log(`sandbox ceiling on loopback (${DURATION} s each, autocannon)`);
	for (const [name, rps, mps, r] of rows) {
		console.log(
			`  ${name.padEnd(14)} ${rps.toFixed(1).padStart(9)} req/s  ${Math.round(mps).toString().padStart(8)} messages/s  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
		);
	}
	console.log(
		`  batch / single messages/s ratio: ${((many.requestsPerSecond * 1000) / one.requestsPerSecond).toFixed(1)}x`,
	);
	if (one.non2xx + many.non2xx + one.errors + many.errors > 0) process.exitCode = 1;
} finally {
	await sandbox.stop();
}

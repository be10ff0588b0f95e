import { parseArgs } from 'node:util';
import type { SandboxOptions } from './options';
import { startSandbox } from './startSandbox';

const USAGE = `Usage: cloudtel sandbox [options]

A local emulator of the CloudTel provider, with a ready demo account.

  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --latency-ms N        delay every /v2 answer by N ms
  --fail-rate X         answer this share (0..1) of /v2 requests with 500
  --rate-limit N        messages per second per account; 429 with Retry-After above it
  --receipt-delay-ms N  delay between sending and the delivery receipt (default 200)
  --json                print the start-up details as one JSON line
  --log                 log every request (pino, JSON)
  -h, --help            this text
`;

function number(
	flag: string,
	raw: string | undefined,
	min: number,
	max = Number.MAX_SAFE_INTEGER,
	integer = true,
): number | undefined {
	if (raw === undefined) return undefined;
	const n = Number(raw);
	if (
		raw.trim() === '' ||
		!Number.isFinite(n) ||
		(integer && !Number.isInteger(n)) ||
		n < min ||
		n > max
	) {
		throw new Error(
			`--${flag} must be ${integer ? 'a whole number' : 'a number'} from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'} (got "${raw}").`,
		);
	}
	return n;
}

export function parseSandboxArgs(argv: string[]): {
	options: SandboxOptions;
	json: boolean;
	help: boolean;
} {
	const { values } = parseArgs({
		args: argv,
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			'latency-ms': { type: 'string' },
			'fail-rate': { type: 'string' },
			'rate-limit': { type: 'string' },
			'receipt-delay-ms': { type: 'string' },
			json: { type: 'boolean' },
			log: { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
		allowPositionals: false,
	});
	return {
		help: values.help ?? false,
		json: values.json ?? false,
		options: {
			port: number('port', values.port, 0, 65535),
			host: values.host,
			latencyMs: number('latency-ms', values['latency-ms'], 0),
			failRate: number('fail-rate', values['fail-rate'], 0, 1, false),
			rateLimit: number('rate-limit', values['rate-limit'], 0),
			receiptDelayMs: number('receipt-delay-ms', values['receipt-delay-ms'], 0),
			logger: values.log ?? false,
		},
	};
}

/** `cloudtel sandbox`: starts, prints how to use it, runs until SIGINT or SIGTERM. */
export async function runSandboxCli(argv: string[]): Promise<number> {
	let parsed: ReturnType<typeof parseSandboxArgs>;
	try {
		parsed = parseSandboxArgs(argv);
	} catch (error) {
		process.stderr.write(`cloudtel sandbox: ${(error as Error).message}\n\n${USAGE}`);
		return 2;
	}
	if (parsed.help) {
		process.stdout.write(USAGE);
		return 0;
	}
	const sandbox = await startSandbox(parsed.options);
	const { AccountSid, AuthToken, PropertySid } = sandbox.demo;
	if (parsed.json) {
		process.stdout.write(
			JSON.stringify({ url: sandbox.url, port: sandbox.port, AccountSid, AuthToken, PropertySid }) +
				'\n',
		);
	} else {
		process.stdout.write(
			[
				`CloudTel sandbox listening on ${sandbox.url}`,
				'',
				'Demo account (SMS-enabled, property Active); paste these lines into your shell:',
				`  export CLOUDTEL_BASE_URL=${sandbox.url}`,
				`  export CLOUDTEL_ACCOUNT_SID=${AccountSid}`,
				`  export CLOUDTEL_AUTH_TOKEN=${AuthToken}`,
				`  PropertySid ${PropertySid}`,
				'',
				'Try:',
				`  curl -u ${AccountSid}:${AuthToken} -H 'content-type: application/json' \\`,
				`    -d '{"To":"+61412345678","Text":"Hello from the sandbox"}' ${sandbox.url}/v2/Properties/${PropertySid}/Messages`,
				`  curl ${sandbox.url}/_sandbox/messages`,
				'',
				'Recipients ending in 0666 or 0667 fail delivery. Ctrl-C stops the sandbox.',
				'',
			].join('\n'),
		);
	}
	await new Promise<void>((resolve) => {
		process.once('SIGINT', resolve);
		process.once('SIGTERM', resolve);
	});
	await sandbox.close();
	return 0;
}

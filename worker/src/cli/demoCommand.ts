import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../campaign/fatalError';
import { runCampaign } from '../campaign/runCampaign';
import { SqliteLedger } from '../ledger/sqliteLedger';
import { JsonReporter } from '../report/jsonReporter';
import { TtyReporter } from '../report/ttyReporter';
import { interruptSignal } from './interruptSignal';
import { loadSandbox } from './sandboxModule';

/** examples/ sits beside worker/ in the repository; dist is worker/dist/worker/src/cli. */
export const DEMO_CSV = join(__dirname, '..', '..', '..', '..', '..', 'examples', 'demo-campaign.csv');
export const DEMO_TEXT = 'Hi {{FirstName}}, your {{Store}} order is ready for pickup. Show code {{Code}} at the counter.';

const DEMO_USAGE = `Usage: cloudtel demo [--json]

Starts a sandbox of the provider on a free port and sends the example campaign
(examples/demo-campaign.csv, a few hundred rows, some of them bad) through it, as
\`cloudtel campaign run\` would. No account is needed; nothing leaves this machine.

  --json      JSON log lines even on a terminal
  -h, --help  this help
`;

/**
 * The README's main job: a campaign of a few hundred rows, some of them bad, sent through
 * the normal engine over HTTP to a sandbox started here, with no account needed.
 */
export async function demoCommand(argv: string[]): Promise<number> {
	let values;
	try {
		({ values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (values.help) {
		process.stdout.write(DEMO_USAGE);
		return 0;
	}
	const json = values.json ?? false;
	const sandbox = await loadSandbox().startSandbox({ port: 0, receiptDelayMs: 200 });
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-demo-'));
	const ledger = new SqliteLedger(join(dir, 'demo.db'));
	const reporter = json ? new JsonReporter() : new TtyReporter(process.stderr.isTTY === true);
	const interrupt = interruptSignal(reporter);
	const outPath = join(dir, 'demo-out.csv');
	try {
		reporter.event('demo', { sandbox: sandbox.url, property: sandbox.demo.PropertySid }, `sandbox running at ${sandbox.url}; sending ${DEMO_CSV} from property ${sandbox.demo.PropertySid}`);
		const summary = await runCampaign(
			{
				spec: { name: 'demo', csvPath: DEMO_CSV, propertySid: sandbox.demo.PropertySid, text: DEMO_TEXT, from: 'CloudTel', defaultCountry: 'AU' },
				provider: { baseUrl: sandbox.url, accountSid: sandbox.demo.AccountSid, authToken: sandbox.demo.AuthToken },
				rate: 500,
				batchSize: 100,
				concurrency: 4,
				outPath,
			},
			{ ledger, reporter, signal: interrupt.signal },
		);
		reporter.event('demo-out', { out: outPath }, `every row's outcome: ${outPath}`);
		return summary.exitCode;
	} finally {
		interrupt.dispose();
		reporter.close();
		await ledger.close();
		await sandbox.close();
		if (process.env.CLOUDTEL_DEMO_KEEP !== '1') rmSync(join(dir, 'demo.db'), { force: true });
	}
}

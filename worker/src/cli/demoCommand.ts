import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DEFAULTS } from '../errors';
import { runCampaign } from '../campaign/runCampaign';
import { sleep } from '../campaign/sleep';
import type { DeliveryCounts, Ledger } from '../storage/ledger';
import { openLedger } from '../storage/openStores';
import { JsonReporter } from '../report/jsonReporter';
import { TtyReporter } from '../report/ttyReporter';
import { formatDelivery } from './campaignStatus';
import { startDemoReceiver, type DemoReceiver } from './demoReceiver';
import { interruptSignal } from './interruptSignal';
import { loadSandbox } from './sandboxModule';
import { parseFlags } from '../settings/parseFlags';

/**
 * The build copies examples/ into worker/dist/examples, so the installed package has it:
 * from dist/worker/src/cli that is dist/examples; from the sources, the repository's examples/.
 */
export const DEMO_CSV = join(__dirname, '..', '..', '..', 'examples', 'demo-campaign.csv');
export const DEMO_TEXT =
	'Hi {{FirstName}}, your {{Store}} order is ready for pickup. Show code {{Code}} at the counter.';

/** How long the demo waits for the last receipts once every row is sent. */
const RECEIPT_TIMEOUT_MS = 20_000;

const DEMO_USAGE = `Usage: cloudtel demo [--json]

Starts a sandbox of the provider on a free port and sends the example campaign
(examples/demo-campaign.csv, a few hundred rows, some of them bad) through it, as
\`cloudtel campaign run\` would, then shows the delivery receipts it sends back. No
account is needed; nothing leaves this machine.

  --json      JSON log lines even on a terminal
  -h, --help  this help
`;

/**
 * The README's main job: a campaign of a few hundred rows, some of them bad, sent through
 * the normal engine over HTTP to a sandbox started here, with no account needed; then the
 * receipts, the sandbox's deliberate failures among them, received by the daemon's own
 * receiver running in-process.
 */
export async function demoCommand(argv: string[]): Promise<number> {
	const values = parseFlags(argv, {
		json: { type: 'boolean' },
		help: { type: 'boolean', short: 'h' },
	});
	if (values.help) {
		process.stdout.write(DEMO_USAGE);
		return 0;
	}
	const json = values.json ?? false;
	const sandbox = await loadSandbox().startSandbox({ port: 0, receiptDelayMs: 200 });
	const dir = mkdtempSync(join(tmpdir(), 'cloudtel-demo-'));
	const dbPath = join(dir, 'demo.db');
	const ledger = await openLedger({ kind: 'sqlite', path: dbPath });
	const reporter = json ? new JsonReporter() : new TtyReporter(process.stderr.isTTY === true);
	const interrupt = interruptSignal(reporter);
	const outPath = join(dir, 'demo-out.csv');
	let receiver: DemoReceiver | undefined;
	try {
		receiver = await startDemoReceiver(dbPath, ledger, sandbox.demo.AccountSid);
		reporter.event(
			'demo',
			{ sandbox: sandbox.url, property: sandbox.demo.PropertySid },
			`sandbox running at ${sandbox.url}; sending ${DEMO_CSV} from property ${sandbox.demo.PropertySid}`,
		);
		const summary = await runCampaign(
			{
				spec: {
					name: 'demo',
					csvPath: DEMO_CSV,
					propertySid: sandbox.demo.PropertySid,
					text: DEMO_TEXT,
					from: 'CloudTel',
					defaultCountry: 'AU',
				},
				provider: {
					baseUrl: sandbox.url,
					accountSid: sandbox.demo.AccountSid,
					authToken: sandbox.demo.AuthToken,
				},
				rate: 500,
				batchSize: 100,
				concurrency: RUN_DEFAULTS.concurrency,
				outPath,
				callbacks: { DeliveryReceiptWebhookUri: receiver.receiptUrl },
			},
			{ ledger, reporter, signal: interrupt.signal },
		);
		reporter.event('demo-out', { out: outPath }, `every row's outcome: ${outPath}`);
		if (summary.exitCode !== 0) return summary.exitCode;
		reporter.event(
			'receipts-waiting',
			{ timeoutSeconds: RECEIPT_TIMEOUT_MS / 1000 },
			`waiting up to ${RECEIPT_TIMEOUT_MS / 1000} s for the delivery receipts`,
		);
		const delivery = await awaitReceipts(ledger, 'demo', interrupt.signal);
		reporter.event(
			'receipts',
			{ ...delivery },
			`receipts: ${formatDelivery(delivery)}` +
				(delivery.awaitingReceipt > 0
					? ` (gave up waiting after ${RECEIPT_TIMEOUT_MS / 1000} s)`
					: ''),
		);
		return summary.exitCode;
	} finally {
		interrupt.dispose();
		await receiver?.close();
		reporter.close();
		await ledger.close();
		await sandbox.close();
		if (process.env.CLOUDTEL_DEMO_KEEP !== '1') rmSync(join(dir, 'demo.db'), { force: true });
	}
}

/** Until no accepted row awaits its receipt, the timeout passes or the user interrupts. */
async function awaitReceipts(
	ledger: Ledger,
	name: string,
	signal: AbortSignal,
): Promise<DeliveryCounts> {
	const until = Date.now() + RECEIPT_TIMEOUT_MS;
	for (;;) {
		const counts = await ledger.deliveryCounts(name);
		if (counts.awaitingReceipt === 0 || Date.now() >= until || signal.aborted) return counts;
		await sleep(100, signal);
	}
}

// Issue 5: 10,000 items through the CloudTel node inside a real n8n 2.x, once with Send Batch
// (BatchMessages, 1000 per request) and once with Send (one request per item), against the
// sandbox on loopback. Prints messages/s for each, from n8n's own timing of the node, and
// their ratio (target: Send Batch at least 20x Send). Starts everything it needs (the pinned
// n8n from the e2e cache, installing it on first use) and stops it before exiting.
// Two pairs, each with the target: Message Fields = Map From Input (each item carries To,
// Text and ExternalId under their API names), and Define Below with To and Text as plain
// field reads ({{ $json.To }}, {{ $json.Text }}). n8n would evaluate those once per item and
// parameter (about 0.5 ms each), the same cost for both operations, which narrowed the ratio
// to 4.6x; the node now reads such parameters from the item instead (plainFieldRead.ts).
// Needs `npm run build` first (npm run bench does it). BENCH_N8N_ITEMS changes the count;
// N8N_* variables pass through to n8n (e.g. N8N_EXPRESSION_ENGINE=legacy).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8n } from '../test/e2e/lib/install.mjs';
import { N8n } from '../test/e2e/lib/n8n.mjs';
import { installPackage, panelOf } from '../test/e2e/lib/package.mjs';
import { startSandbox } from '../test/e2e/lib/sandbox.mjs';
import { cloudTel, code, credential, linear, outputOf } from '../test/e2e/lib/workflows.mjs';

const ITEMS = Number(process.env.BENCH_N8N_ITEMS ?? 10_000);
const TARGET_RATIO = 20;

const root = mkdtempSync(join(tmpdir(), 'cloudtel-n8n-bench-'));
const install = await ensureN8n();
const sandbox = await startSandbox({ receiptDelayMs: 3_600_000 });
const n8n = await new N8n(install, join(root, 'n8n')).init();

async function measure(operation, cred, { mapping }) {
	const make = code(
		'Make items',
		`return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { To: '+614' + String(10000000 + i).slice(-8), Text: 'Bench ' + i, ExternalId: 'bench-' + i } }));`,
	);
	const fields =
		mapping === 'autoMap'
			? { mapping: 'autoMap' }
			: {
					mapping: 'defineBelow',
					from: 'CloudTel',
					to: '={{ $json.To }}',
					text: '={{ $json.Text }}',
				};
	const node = cloudTel(
		'CloudTel',
		{
			resource: 'message',
			operation,
			propertySid: sandbox.demo.PropertySid,
			...fields,
			options: { DeliveryReceipt: false },
			...(operation === 'sendBatch' ? { batchSize: 1000 } : {}),
		},
		{ credential: cred },
	);
	const wf = linear(`bench ${operation} ${mapping}`, make, node);
	await n8n.importWorkflow(wf);
	const before = (await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })).length;
	const started = performance.now();
	const execution = await n8n.execute(wf.id, { timeoutMs: 30 * 60_000 });
	const wallMs = performance.now() - started;
	if (execution.status !== 'success')
		throw new Error(
			`${operation}: execution ${execution.status}: ${JSON.stringify(execution.data.resultData.error)}`,
		);
	const out = outputOf(execution, 'CloudTel');
	const nodeMs = execution.data.resultData.runData.CloudTel[0].executionTime;
	const reached =
		(await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })).length - before;
	const sent = out.filter((item) => item.json.MessageSid).length;
	if (sent !== ITEMS || reached !== ITEMS)
		throw new Error(
			`${operation}: ${sent} output items with a MessageSid, ${reached} messages in the sandbox; expected ${ITEMS}`,
		);
	return { operation, mapping, nodeMs, wallMs, perSecond: ITEMS / (nodeMs / 1000) };
}

let exitCode = 0;
try {
	installPackage(n8n.userFolder, panelOf(n8n.install));
	const cred = credential('cloudtelBench1', sandbox.url, sandbox.demo);
	await n8n.importCredentials([cred]);
	const link = { id: cred.id, name: cred.name };
	const batch = await measure('sendBatch', link, { mapping: 'autoMap' });
	const single = await measure('send', link, { mapping: 'autoMap' });
	const exprBatch = await measure('sendBatch', link, { mapping: 'expressions' });
	const exprSingle = await measure('send', link, { mapping: 'expressions' });
	const ratio = batch.perSecond / single.perSecond;
	const exprRatio = exprBatch.perSecond / exprSingle.perSecond;
	const verdict = (r) => `(target >= ${TARGET_RATIO}x: ${r >= TARGET_RATIO ? 'met' : 'NOT met'})`;
	const line = (r) => {
		const name = r.operation === 'sendBatch' ? 'Send Batch' : 'Send';
		return `  ${name.padEnd(18)} ${Math.round(r.perSecond).toString().padStart(8)} messages/s  (node ${(r.nodeMs / 1000).toFixed(2)} s, whole \`n8n execute\` ${(r.wallMs / 1000).toFixed(1)} s)`;
	};
	console.log(
		`n8n ${install.version}, ${ITEMS} items, sandbox on loopback; time = the CloudTel node's executionTime in n8n`,
	);
	console.log(`Message Fields = Map From Input (To, Text, ExternalId read from each item):`);
	console.log(line(batch));
	console.log(line(single));
	console.log(`  Send Batch / Send: ${ratio.toFixed(1)}x ${verdict(ratio)}`);
	console.log(
		`Message Fields = Define Below, To and Text as plain field reads ({{ $json.To }}, {{ $json.Text }}):`,
	);
	console.log(line(exprBatch));
	console.log(line(exprSingle));
	console.log(`  Send Batch / Send: ${exprRatio.toFixed(1)}x ${verdict(exprRatio)}`);
} catch (error) {
	console.error(error?.stack ?? error);
	exitCode = 1;
} finally {
	await n8n.stopServer();
	await sandbox.close();
	// A failed run keeps n8n's folder (n8n.log holds every CLI call and its output).
	if (exitCode === 0) rmSync(root, { recursive: true, force: true });
	else console.error(`n8n's folder kept: ${root}`);
}
process.exit(exitCode);

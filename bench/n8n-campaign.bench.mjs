// Issue 22: the hand-over of 100,000 items from n8n to a started campaign, inside a real n8n
// 2.x: a Code node makes the items, the CloudTel Campaign node Start gives them to a real
// `cloudtel worker` (settings, ten pages of 10,000, start). Printed beside Send Batch of the
// same items, as far as its validation: Send Batch reads and checks every item before it sends
// anything, so with a provider that cannot be reached its node time is that validation
// (plus one refused connection). Time = each node's executionTime in n8n; peak RSS = the
// `n8n execute` process's VmHWM and that of its task runner (which runs the Code node), sampled
// from /proc. Target: the hand-over at least as fast as Send Batch's validation of the same
// items (ratio <= 1). The same Send Batch sending to the sandbox is printed too.
// Needs `npm run build` (npm run bench does it). BENCH_CAMPAIGN_ITEMS changes the count.
import { spawn } from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCloudtelWorker, workerCredential } from '../test/e2e/lib/cloudtelWorker.mjs';
import { ensureN8n } from '../test/e2e/lib/install.mjs';
import { freePort, N8n } from '../test/e2e/lib/n8n.mjs';
import { installPackage, panelOf } from '../test/e2e/lib/package.mjs';
import { startSandbox } from '../test/e2e/lib/sandbox.mjs';
import {
	chain,
	cloudTel,
	cloudTelCampaign,
	code,
	credential,
	manualTrigger,
	workflow,
} from '../test/e2e/lib/workflows.mjs';

const ITEMS = Number(process.env.BENCH_CAMPAIGN_ITEMS ?? 100_000);
const root = mkdtempSync(join(tmpdir(), 'cloudtel-campaign-bench-'));
const install = await ensureN8n();
const sandbox = await startSandbox({ receiptDelayMs: 3_600_000 });
const n8n = await new N8n(install, join(root, 'n8n')).init();
let worker;

const makeItems = () =>
	code(
		'Make items',
		`return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { To: '+614' + String(10000000 + i).slice(-8), Text: 'Bench ' + i, first_name: 'P' + i, ExternalId: 'bench-' + i } }));`,
	);

/** VmHWM (peak resident set) in MB of a process, 0 once it is gone. */
function peakMb(pid) {
	try {
		const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) / 1024 : 0;
	} catch {
		return 0;
	}
}

function childrenOf(pid) {
	const out = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid) out.push(Number(entry), ...childrenOf(Number(entry)));
		} catch {
			// gone
		}
	}
	return out;
}

/** `n8n execute` of one workflow, sampling the peak RSS of it and of its descendants (the task runner). */
async function execute(wf) {
	await n8n.importWorkflow(wf);
	// Into a file, not a pipe: n8n exits right after printing tens of MB, which a pipe would cut short.
	const outFile = join(root, `execute-${wf.id}.out`);
	const fd = openSync(outFile, 'w');
	const child = spawn(
		install.nodeBin,
		[install.n8nBin, 'execute', `--id=${wf.id}`, '--rawOutput'],
		{ cwd: n8n.userFolder, env: n8n.env(), stdio: ['ignore', fd, fd] },
	);
	closeSync(fd);
	const peaks = { main: 0, runners: 0 };
	const timer = setInterval(() => {
		peaks.main = Math.max(peaks.main, peakMb(child.pid));
		peaks.runners = Math.max(peaks.runners, ...childrenOf(child.pid).map(peakMb), 0);
	}, 50);
	await new Promise((resolve) => child.once('exit', resolve));
	clearInterval(timer);
	const execution = lastJson(readFileSync(outFile, 'utf8'));
	rmSync(outFile);
	return { execution, peaks };
}

/** The execution `n8n execute` printed: from its first line "{" to its last line "}", parsed once (its items are 100,000). */
function lastJson(text) {
	const start = text.search(/^\{$/m);
	const end = text.lastIndexOf('\n}');
	if (start < 0 || end < start)
		throw new Error(`n8n execute printed no execution:\n${text.slice(-3000)}`);
	return JSON.parse(text.slice(start, end + 2));
}

function nodeRun(execution, name) {
	const run = execution.data.resultData.runData[name]?.[0];
	if (!run)
		throw new Error(
			`${name} did not run: ${JSON.stringify(execution.data.resultData.error)?.slice(0, 1000)}`,
		);
	return run;
}

async function handOver(link) {
	const node = cloudTelCampaign(
		'CloudTel Campaign',
		// A slow rate: the campaign is started, and the bench does not wait for its sending.
		{
			operation: 'start',
			campaignName: `bench-${Date.now().toString(36)}`,
			mapping: 'autoMap',
			propertySid: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			options: { toColumn: 'To', from: 'CloudTel', rate: 1, receipts: false },
		},
		{ credential: link },
	);
	const nodes = [manualTrigger(), makeItems(), node];
	const { execution, peaks } = await execute(
		workflow('bench campaign start', nodes, chain(...nodes)),
	);
	const run = nodeRun(execution, 'CloudTel Campaign');
	const [out] = run.data?.main?.[0] ?? [];
	if (run.error || out?.json?.handedOver !== ITEMS || out.json.state === 'draft')
		throw new Error(
			`hand-over did not start ${ITEMS} recipients: ${JSON.stringify(run.error ?? out?.json).slice(0, 1000)}`,
		);
	return { ms: run.executionTime, peaks, state: out.json.state };
}

async function sendBatch(link, { reachable }) {
	const node = cloudTel(
		'CloudTel',
		{
			resource: 'message',
			operation: 'sendBatch',
			propertySid: sandbox.demo.PropertySid,
			mapping: 'autoMap',
			options: { DeliveryReceipt: false },
			batchSize: 1000,
		},
		{ credential: link },
	);
	const nodes = [manualTrigger(), makeItems(), node];
	const { execution, peaks } = await execute(
		workflow(`bench send batch ${reachable ? 'sending' : 'validation'}`, nodes, chain(...nodes)),
	);
	const run = nodeRun(execution, 'CloudTel');
	if (reachable && (run.error || (run.data?.main?.[0] ?? []).length !== ITEMS))
		throw new Error(`Send Batch did not send ${ITEMS}: ${JSON.stringify(run.error).slice(0, 500)}`);
	// Validation only: every item read and checked, then the first request refused.
	if (!reachable && !/ECONNREFUSED/.test(JSON.stringify(run.error ?? '')))
		throw new Error(
			`expected the refused first request after validation, got ${JSON.stringify(run.error ?? 'success').slice(0, 500)}`,
		);
	return { ms: run.executionTime, peaks };
}

let exitCode = 0;
try {
	installPackage(n8n.userFolder, panelOf(n8n.install));
	const dir = join(root, 'worker');
	mkdirSync(dir);
	worker = await startCloudtelWorker({ dir, sandbox });
	const closedPort = await freePort();
	const creds = [
		credential('cloudtelBench1', sandbox.url, sandbox.demo),
		credential('cloudtelBenchClosed', `http://127.0.0.1:${closedPort}`, sandbox.demo, 'nowhere'),
		workerCredential('cloudtelBenchWorker', worker),
	];
	await n8n.importCredentials(creds);
	const [sandboxLink, closedLink, workerLink] = creds.map((c) => ({ id: c.id, name: c.name }));
	writeFileSync(join(root, 'started'), new Date().toISOString());
	const validation = await sendBatch(closedLink, { reachable: false });
	const hand = await handOver(workerLink);
	const sending = await sendBatch(sandboxLink, { reachable: true });
	const ratio = hand.ms / validation.ms;
	const rss = (p) => `peak RSS n8n ${p.main.toFixed(0)} MB, task runner ${p.runners.toFixed(0)} MB`;
	console.log(
		`n8n ${install.version}, ${ITEMS.toLocaleString('en-US')} items from a Code node, Map From Input; time = the node's executionTime in n8n`,
	);
	console.log(
		`  Campaign Start, hand-over to the worker (settings, ${Math.ceil(ITEMS / 10_000)} pages, start): ${(hand.ms / 1000).toFixed(2)} s, ${Math.round(ITEMS / (hand.ms / 1000)).toLocaleString('en-US')} items/s; ${rss(hand.peaks)}; campaign ${hand.state}`,
	);
	console.log(
		`  Send Batch, validation of the same items (provider unreachable): ${(validation.ms / 1000).toFixed(2)} s, ${Math.round(ITEMS / (validation.ms / 1000)).toLocaleString('en-US')} items/s; ${rss(validation.peaks)}`,
	);
	console.log(
		`  Send Batch, validation and sending to the sandbox: ${(sending.ms / 1000).toFixed(2)} s; ${rss(sending.peaks)}`,
	);
	console.log(
		`  hand-over / Send Batch validation: ${ratio.toFixed(2)}x (target <= 1: ${ratio <= 1 ? 'met' : 'NOT met'})`,
	);
	console.log(
		`  load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
	);
} catch (error) {
	console.error(error?.stack ?? error);
	exitCode = 1;
} finally {
	await worker?.stop().catch(() => {});
	await n8n.stopServer();
	await sandbox.close();
	if (exitCode === 0) rmSync(root, { recursive: true, force: true });
	else console.error(`folder kept: ${root}`);
}
process.exit(exitCode);

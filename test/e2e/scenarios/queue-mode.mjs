// n8n in queue mode, as it runs at scale (n8n 2.x only): Postgres, Redis, one main, one
// worker and two webhook processes behind a round-robin proxy, the trigger's production URL
// being the proxy's. Send Batch of 2,000 items runs on the worker; receipts and replies reach
// both webhook processes and run on the worker; the secret holds on both; repeats that reach
// both processes are counted (Ignore Repeats is per process); and the shipped template
// (examples/n8n-callbacks-exactly-once.workflow.json: Redis Increment + If) lets exactly N of
// N distinct callbacks through when each is sent to both processes at once. Last, the
// cloudtel worker as n8n's intake (forward.n8n): callbacks the provider sends it twice reach
// the trigger, through the proxy, once each.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { freePort, N8n } from '../lib/n8n.mjs';
import { spawnTracked, stop } from '../lib/procs.mjs';
import { installPackage, panelOf, repoRoot } from '../lib/package.mjs';
import { startPostgres, startRedis, startRoundRobin, redisCommand } from '../lib/queue.mjs';
import { Editor } from '../lib/editor.mjs';
import {
	chain,
	cloudTel,
	cloudTelTrigger,
	code,
	credential,
	node,
	workflow,
} from '../lib/workflows.mjs';
import { waitFor as waitUntil } from '../lib/waitFor.mjs';

export const title =
	'Queue mode: Postgres, Redis, main + worker + two webhook processes behind a round-robin proxy';

const SECRET = 'queue-mode-secret';
const BATCH = 2000;
const DISTINCT = 50;
const TEMPLATE = join(repoRoot, 'examples', 'n8n-callbacks-exactly-once.workflow.json');

/** This scenario's own default waits. */
const waitFor = (what, probe, options) =>
	waitUntil(what, probe, { timeoutMs: 120_000, intervalMs: 1000, ...options });

const post = (url, body) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});

export async function run(ctx, test) {
	if (ctx.install.major < 2) return; // queue mode is tested on the newest line only
	const dir = join(ctx.root, 'queue');
	mkdirSync(dir, { recursive: true });
	const { sandbox } = ctx;
	const stack = [];
	let postgres;
	let redis;
	let proxy;
	let main;
	let worker;
	const webhooks = [];
	let api;
	const tag = `queue-${Date.now()}`;

	// The workflows: batch (a Webhook starts it), receipts and replies (CloudTel Triggers),
	// and the shipped template for exactly-once handling.
	const hook = node(
		'Start',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path: `cloudtel-batch-${tag}`, responseMode: 'onReceived', options: {} },
		{ webhookId: randomUUID() },
	);
	const receiptsTrigger = cloudTelTrigger('CloudTel Trigger', {
		events: ['receipt'],
		secret: SECRET,
	});
	const repliesTrigger = cloudTelTrigger('CloudTel Trigger', { events: ['reply'], secret: SECRET });
	const receiptsWf = workflow('queue receipts', [receiptsTrigger]);
	const viaWorkerTrigger = cloudTelTrigger('CloudTel Trigger', {
		events: ['receipt', 'reply'],
		secret: SECRET,
	});
	const viaWorkerWf = workflow('queue callbacks from the cloudtel worker', [viaWorkerTrigger]);
	let cloudtelWorker;
	const repliesWf = workflow('queue replies', [repliesTrigger]);
	const template = JSON.parse(readFileSync(TEMPLATE, 'utf8'));
	const onceWf = {
		...workflow(template.name, []),
		nodes: template.nodes,
		connections: template.connections,
		settings: template.settings,
	};
	const templateTrigger = onceWf.nodes.find((n) => n.type.endsWith('.cloudTelTrigger'));
	templateTrigger.parameters.secret = SECRET;

	try {
		const up = await test(
			'Postgres, Redis, main, worker, two webhook processes and the proxy are up',
			async () => {
				[postgres, redis] = await Promise.all([startPostgres(), startRedis(dir)]);
				stack.push(postgres, redis);
				const make = async (name) => {
					const instance = await new N8n(ctx.install, join(dir, name)).init();
					installPackage(instance.userFolder, panelOf(ctx.install));
					return instance;
				};
				main = await make('main');
				worker = await make('worker');
				webhooks.push(await make('webhook-1'), await make('webhook-2'));
				proxy = await startRoundRobin(webhooks.map((w) => w.url));
				stack.push(proxy);
				const shared = {
					...postgres.env,
					...redis.env,
					EXECUTIONS_MODE: 'queue',
					// Production webhook URLs are the proxy's: that is what messages carry.
					WEBHOOK_URL: `${proxy.url}/`,
					N8N_LOG_LEVEL: 'info',
				};
				for (const instance of [main, worker, ...webhooks]) {
					instance.extraEnv = { ...instance.extraEnv, ...shared };
					ctx.track(instance);
				}
				const cred = credential('cloudtelQueue1', sandbox.url, sandbox.demo);
				const redisCred = {
					id: 'redisQueue1',
					name: 'Redis (queue mode)',
					type: 'redis',
					data: { host: '127.0.0.1', port: redis.port, database: 0, password: '' },
				};
				// main first (it migrates the database), then the credentials and workflows saved and
				// published through its REST API, then the worker and both webhook processes at once.
				await main.start({ timeoutMs: 300_000 });
				const editor = await new Editor(main).login();
				api = editor.api;
				await editor.importCredentials([cred, redisCred]);
				const link = { id: cred.id, name: cred.name };
				const batchWf = workflow(
					'queue batch',
					[
						hook,
						code(
							'Make',
							`return Array.from({ length: ${BATCH} }, (_, i) => ({ json: { to: '+614' + String(20000000 + i), id: '${tag}-' + i } }));`,
						),
						cloudTel(
							'CloudTel',
							{
								resource: 'message',
								operation: 'sendBatch',
								propertySid: sandbox.demo.PropertySid,
								from: '',
								to: '={{ $json.to }}',
								text: 'Queue mode says hello',
								options: {
									ExternalId: '={{ $json.id }}',
									DeliveryReceipt: true,
									DeliveryReceiptWebhookUri: `${proxy.url}/webhook/${receiptsTrigger.webhookId}/cloudtel?secret=${SECRET}`,
								},
								replyHandling: {
									WebhookUri: `${proxy.url}/webhook/${repliesTrigger.webhookId}/cloudtel?secret=${SECRET}`,
									WebhookMethod: 'POST',
								},
								batchSize: 1000,
							},
							{ credential: link },
						),
					],
					chain(hook, { name: 'Make' }, { name: 'CloudTel' }),
				);
				ctx.batchWf = batchWf;
				onceWf.nodes.find((n) => n.type === 'n8n-nodes-base.redis').credentials.redis = {
					id: redisCred.id,
					name: redisCred.name,
				};
				for (const wf of [batchWf, receiptsWf, repliesWf, onceWf, viaWorkerWf]) {
					await editor.importWorkflow(wf);
					await editor.publish(wf.id);
				}
				await Promise.all([
					worker.start({
						command: 'worker',
						ready: 'n8n worker is now ready',
						healthy: false,
						timeoutMs: 300_000,
					}),
					...webhooks.map((w) =>
						w.start({
							command: 'webhook',
							ready: 'Webhook listener waiting for requests',
							timeoutMs: 300_000,
						}),
					),
				]);
			},
			{ timeoutMs: 1_200_000 },
		);
		if (!up) return;

		const workerLog = () => readFileSync(worker.logFile, 'utf8');
		const ranOnWorker = (id) => workerLog().includes(`Worker started execution ${id} `);
		const executions = async (wf) =>
			(await api.executions(wf.id)).filter((e) => e.status === 'success' || e.finished);
		let sent = [];

		await test(
			`Send Batch of ${BATCH.toLocaleString('en')} items, started through a webhook process, runs on the worker`,
			async () => {
				const res = await post(`${proxy.url}/webhook/cloudtel-batch-${tag}`, {});
				assert.equal(res.status, 200, await res.text());
				const [execution] = await waitFor(
					'the batch execution',
					async () => {
						const list = await executions(ctx.batchWf);
						return list.length ? list : undefined;
					},
					{ timeoutMs: 900_000, intervalMs: 3000 },
				);
				const full = await api.get(`/executions/${execution.id}?includeData=true`);
				const out = full.data.resultData.runData.CloudTel[0].data.main[0];
				assert.equal(out.length, BATCH);
				out.forEach((item, i) =>
					assert.equal(item.pairedItem?.item ?? item.pairedItem?.[0]?.item, i, `item ${i} paired`),
				);
				assert.ok(ranOnWorker(execution.id), `the worker log names execution ${execution.id}`);
				const stored = (
					await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })
				).filter((m) => String(m.ExternalId).startsWith(`${tag}-`));
				assert.equal(stored.length, BATCH);
				sent = stored;
			},
			{ timeoutMs: 1_000_000 },
		);
		if (!sent.length) return;

		await test(
			'receipts and replies reach both webhook processes, each one execution, run on the worker',
			async () => {
				const before = [...proxy.sent];
				const receipted = sent.slice(0, 40);
				for (const m of receipted)
					assert.equal((await sandbox.control.receipt(m.MessageSid, 'Delivered')).status, 200);
				const replied = sent.slice(40, 60);
				for (const m of replied)
					assert.equal((await sandbox.control.reply(m.To, m.From, 'YES')).status, 200);
				const receipts = await waitFor('40 receipt executions', async () => {
					const list = await executions(receiptsWf);
					return list.length >= receipted.length ? list : undefined;
				});
				const replies = await waitFor('20 reply executions', async () => {
					const list = await executions(repliesWf);
					return list.length >= replied.length ? list : undefined;
				});
				// A webhook process slower than the sandbox's 5 s timeout (a loaded machine) gets the
				// callback again, as the provider retries, and n8n starts a second execution for it:
				// across processes nothing dedupes (the repeats test below). Only such retries may add one.
				const sids = new Set(receipted.map((m) => m.MessageSid));
				const calls = (await sandbox.control.outbox()).Callbacks;
				const retried = (kind, webhookId, keep) =>
					calls.filter(
						(c) => c.Kind === kind && c.Attempt > 1 && c.Url.includes(webhookId) && keep(c),
					).length;
				const receiptRetries = retried('DeliveryReceipt', receiptsTrigger.webhookId, (c) =>
					sids.has(c.MessageSid),
				);
				const replyRetries = retried('Reply', repliesTrigger.webhookId, () => true);
				if (receiptRetries + replyRetries > 0)
					console.log(
						`       the sandbox retried ${receiptRetries} receipt and ${replyRetries} reply callbacks (a webhook process slower than 5 s)`,
					);
				assert.ok(
					receipts.length >= receipted.length &&
						receipts.length <= receipted.length + receiptRetries,
					`${receipts.length} receipt executions for ${receipted.length} receipts, ${receiptRetries} retried`,
				);
				assert.ok(
					replies.length >= replied.length && replies.length <= replied.length + replyRetries,
					`${replies.length} reply executions for ${replied.length} replies, ${replyRetries} retried`,
				);
				const perProcess = proxy.sent.map((n, i) => n - before[i]);
				console.log(
					`       callbacks through the proxy: ${perProcess.join(' and ')} to the two webhook processes`,
				);
				for (const n of perProcess)
					assert.ok(n >= 10, `each webhook process took callbacks: ${perProcess}`);
				for (const e of [...receipts, ...replies])
					assert.ok(ranOnWorker(e.id), `execution ${e.id} ran on the worker`);
			},
			{ timeoutMs: 300_000 },
		);

		// A real receipt's payload, from what the sandbox sent: the repeats below are its copies.
		const outbox = await sandbox.control.outbox();
		const sample = outbox.Callbacks.find(
			(c) => c.Kind === 'DeliveryReceipt' && c.Url.includes(receiptsTrigger.webhookId),
		);
		const payloadFor = (m) => ({
			...sample.Payload,
			MessageSid: m.MessageSid,
			To: m.To,
			From: m.From,
		});
		const sidOf = (e) =>
			e.data?.resultData?.runData?.['CloudTel Trigger']?.[0]?.data?.main?.[0]?.[0]?.json
				?.MessageSid;
		/** Executions of a workflow whose receipt is one of these messages. */
		const executionsOf = async (wf, messages) => {
			const sids = new Set(messages.map((m) => m.MessageSid));
			return (await executions(wf)).filter((e) => sids.has(sidOf(e)));
		};
		/**
		 * That nothing more started is proven by markers: a receipt of a message of its own to
		 * each webhook process in turn, sent after the calls that must start nothing. Once the markers'
		 * executions are there, any the calls before them had started would be too. Executions are
		 * counted by their receipt's message: the sandbox may still be retrying earlier callbacks
		 * to the same workflow (a webhook process slower than 5 s on a loaded machine).
		 */
		const markers = async (wf, webhookId, messages) => {
			for (const [k, m] of messages.entries()) {
				const res = await post(
					`${webhooks[k % webhooks.length].url}/webhook/${webhookId}/cloudtel?secret=${SECRET}`,
					payloadFor(m),
				);
				assert.equal(res.status, 200, await res.text());
			}
			// One execution per call: each goes to another process, and repeats dedupe per process only.
			await waitFor(
				`the markers' executions (${messages.length})`,
				async () => (await executionsOf(wf, messages)).length >= messages.length,
			);
		};

		await test('the secret holds on both webhook processes: none or a wrong one is 401 and starts nothing', async () => {
			for (const w of webhooks) {
				for (const query of ['', '?secret=wrong']) {
					const res = await post(
						`${w.url}/webhook/${receiptsTrigger.webhookId}/cloudtel${query}`,
						payloadFor(sent[100]),
					);
					assert.equal(res.status, 401, `${w.url} ${query}`);
				}
			}
			const marked = sent.slice(110, 112);
			await markers(receiptsWf, receiptsTrigger.webhookId, marked);
			assert.equal(
				(await executionsOf(receiptsWf, marked)).length,
				marked.length,
				'one execution per marker',
			);
			assert.equal(
				(await executionsOf(receiptsWf, [sent[100]])).length,
				0,
				'the refused calls started executions',
			);
		});

		await test(
			'repeats reaching both webhook processes are counted: Ignore Repeats holds per process only',
			async () => {
				const repeated = sent.slice(200, 210);
				// Each receipt twice to each process, all at once: each process starts it once.
				await Promise.all(
					repeated.flatMap((m) =>
						webhooks.flatMap((w) =>
							[0, 1].map(() =>
								post(
									`${w.url}/webhook/${receiptsTrigger.webhookId}/cloudtel?secret=${SECRET}`,
									payloadFor(m),
								),
							),
						),
					),
				);
				await waitFor('the repeats to run', async () => {
					const list = await executionsOf(receiptsWf, repeated);
					return list.length >= repeated.length * 2 ? list : undefined;
				});
				await markers(receiptsWf, receiptsTrigger.webhookId, sent.slice(220, 222));
				const started = (await executionsOf(receiptsWf, repeated)).length;
				console.log(
					`       ${repeated.length} receipts, each sent 4 times (twice to each process): ${started} executions`,
				);
				assert.equal(started, repeated.length * 2, 'one per process per receipt');
			},
			{ timeoutMs: 300_000 },
		);

		await test(
			`the shipped template: ${DISTINCT} distinct callbacks, each sent to both processes at once, pass exactly ${DISTINCT} times`,
			async () => {
				const distinct = sent.slice(300, 300 + DISTINCT);
				await Promise.all(
					distinct.flatMap((m) =>
						webhooks.map((w) =>
							post(
								`${w.url}/webhook/${templateTrigger.webhookId}/cloudtel?secret=${SECRET}`,
								payloadFor(m),
							),
						),
					),
				);
				const runs = await waitFor(
					`${DISTINCT * 2} template executions`,
					async () => {
						const list = await executions(onceWf);
						return list.length >= DISTINCT * 2 ? list : undefined;
					},
					{ timeoutMs: 300_000, intervalMs: 3000 },
				);
				// The marker: one more distinct callback to both processes, passing once.
				const marker = sent[300 + DISTINCT];
				await markers(onceWf, templateTrigger.webhookId, [marker, marker]);
				const all = (await api.executions(onceWf.id)).filter((e) => sidOf(e) !== marker.MessageSid);
				const passed = all.filter(
					(e) => e.data?.resultData?.runData?.['Handle once']?.[0]?.data?.main?.[0]?.length,
				);
				const sids = passed.map(sidOf);
				console.log(
					`       ${all.length} executions (${runs.length} finished), ${passed.length} passed "First time?"`,
				);
				assert.equal(all.length, DISTINCT * 2, 'both processes started each callback');
				assert.equal(passed.length, DISTINCT);
				assert.deepEqual([...new Set(sids)].sort(), distinct.map((m) => m.MessageSid).sort());
				const key = `cloudtel:${passed[0].data.resultData.runData['CloudTel Trigger'][0].data.main[0][0].json.Event}:${sids[0]}`;
				assert.equal(await redisCommand(redis.port, 'GET', key), '2', `${key} counted both copies`);
			},
			{ timeoutMs: 400_000 },
		);

		await test(
			'the cloudtel worker as intake (forward.n8n): each receipt and reply, sent to it twice, starts one execution',
			async () => {
				const port = await freePort();
				const workerSecret = 'queue-mode-worker-secret-0123';
				const config = join(dir, 'cloudtel-worker.json');
				writeFileSync(
					config,
					JSON.stringify({
						db: join(dir, 'cloudtel-worker.db'),
						server: {
							publicUrl: `http://127.0.0.1:${port}`,
							port,
							host: '127.0.0.1',
							secret: workerSecret,
						},
						outbox: { backoffMs: 200, maxBackoffMs: 2000 },
						forward: {
							n8n: {
								url: `${proxy.url}/webhook/${viaWorkerTrigger.webhookId}/cloudtel?secret=${SECRET}`,
							},
						},
					}),
				);
				const env = {
					...process.env,
					CLOUDTEL_BASE_URL: sandbox.url,
					CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
				};
				cloudtelWorker = spawnTracked(
					process.execPath,
					[join(repoRoot, 'worker', 'bin', 'cloudtel.js'), 'worker', '--config', config],
					{ env },
				);
				const lines = createInterface({ input: cloudtelWorker.stdout });
				await new Promise((resolve, reject) => {
					lines.on('line', (line) => line.includes('"worker started"') && resolve());
					cloudtelWorker.once('exit', (code) =>
						reject(new Error(`cloudtel worker exited (${code})`)),
					);
				});
				const base = `http://127.0.0.1:${port}/callbacks/${workerSecret}`;
				const before = [...proxy.sent];
				const messages = [];
				for (let i = 0; i < 20; i++) {
					const res = await sandbox.api(
						'POST',
						`/v2/Properties/${sandbox.demo.PropertySid}/Messages`,
						{
							To: `+614913${String(70000 + i)}`,
							Text: 'Via the worker',
							DeliveryReceipt: true,
							DeliveryReceiptWebhookUri: `${base}/receipts`,
							WebhookUri: `${base}/replies`,
						},
					);
					assert.equal(res.status, 200, JSON.stringify(res.body));
					messages.push(res.body.Message);
				}
				// The provider sends every receipt twice (a retry whose answer it lost), and 10 replies.
				for (const m of messages)
					for (const _ of [0, 1])
						assert.equal((await sandbox.control.receipt(m.MessageSid, 'Delivered')).status, 200);
				const replies = [];
				for (const m of messages.slice(0, 10))
					replies.push((await sandbox.control.reply(m.To, m.From, 'YES')).body.MessageSid);
				// And every callback the worker got, once more, as a provider retry would.
				await waitFor(
					'the worker to take every callback',
					async () =>
						(await sandbox.control.outbox()).Callbacks.filter(
							(c) => c.Url.startsWith(base) && c.Delivered,
						).length >=
						messages.length + replies.length,
					{ timeoutMs: 60_000 },
				).catch(() => undefined);
				const taken = (await sandbox.control.outbox()).Callbacks.filter((c) =>
					c.Url.startsWith(base),
				);
				// Ten at a time: the worker caps connections per client address (server.maxConnectionsPerClient),
				// and the sandbox's own callbacks come from this address too.
				for (let i = 0; i < taken.length; i += 10)
					await Promise.all(
						taken.slice(i, i + 10).map((c) => post(c.Url, c.Payload).then((r) => r.arrayBuffer())),
					);
				const expected = messages.length + replies.length;
				await waitFor(
					`${expected} executions from the worker's forwards`,
					async () => (await executions(viaWorkerWf)).length >= expected,
					{ timeoutMs: 180_000, intervalMs: 2000 },
				);
				const marker = sent[400];
				await markers(viaWorkerWf, viaWorkerTrigger.webhookId, [marker], expected + 1);
				const got = (await api.executions(viaWorkerWf.id))
					.map((e) => e.data.resultData.runData['CloudTel Trigger'][0].data.main[0][0].json)
					.filter((j) => j.MessageSid !== marker.MessageSid);
				const keys = got.map((j) => `${j.Event}:${j.MessageSid}`);
				console.log(
					`       ${messages.length * 2} receipts and ${replies.length} replies sent to the worker: ${got.length} executions, through the proxy ${proxy.sent.map((n, i) => n - before[i]).join(' and ')}`,
				);
				assert.equal(got.length, expected);
				assert.equal(new Set(keys).size, expected, 'one execution per callback');
				assert.deepEqual(
					got
						.filter((j) => j.Event === 'Reply')
						.map((j) => j.MessageSid)
						.sort(),
					[...replies].sort(),
				);
				for (const n of proxy.sent.map((x, i) => x - before[i]))
					assert.ok(n > 0, 'both webhook processes took forwards');
			},
			{ timeoutMs: 400_000 },
		);
	} finally {
		await stop(cloudtelWorker, 5000).catch(() => {});
		for (const instance of [...webhooks, worker, main])
			await instance?.stopServer().catch(() => {});
		for (const part of stack.reverse()) await part.close().catch(() => {});
	}
}

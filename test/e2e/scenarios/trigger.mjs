// The CloudTel Trigger in the line's running n8n: published workflows listen on their
// production URLs; messages sent by the CloudTel node carry those URLs; the sandbox calls
// back; the executions are read through n8n's public API. That nothing more started is proven
// by a later, different callback (a marker) whose execution arrives after it, never by a sleep.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';
import { CREDENTIAL_TYPE, cloudTelTrigger, workflow } from '../lib/workflows.mjs';
import { waitFor as waitUntil } from '../lib/waitFor.mjs';

export const title =
	'CloudTel Trigger: delivery receipts and replies start executions in a running n8n';

const SECRET = 's3cret-for-e2e';
const TRIGGER = 'CloudTel Trigger';

function triggerWorkflow(name, events) {
	const node = cloudTelTrigger(TRIGGER, { events, secret: SECRET });
	return { wf: workflow(name, [node]), webhookId: node.webhookId };
}

/** The trigger's output item in each execution, oldest first. */
function received(executions) {
	return executions
		.map((e) => e.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json)
		.filter(Boolean)
		.reverse();
}

/** This scenario's own default waits. */
const waitFor = (what, probe, options) =>
	waitUntil(what, probe, { timeoutMs: 30_000, intervalMs: 500, ...options });

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const receipts = triggerWorkflow('e2e receipts', ['receipt']);
	const replies = triggerWorkflow('e2e replies', ['reply']);
	const server = ctx.n8n;
	const { api } = server;
	let urls;

	const up = await test(
		'n8n serves two published trigger workflows',
		async () => {
			for (const { wf } of [receipts, replies]) {
				await server.importWorkflow(wf);
				await server.publish(wf.id);
			}
			for (const { wf } of [receipts, replies])
				assert.equal((await api.workflow(wf.id)).active, true, `${wf.name} is active`);
			urls = {
				receipt: `${server.url}/webhook/${receipts.webhookId}/cloudtel`,
				reply: `${server.url}/webhook/${replies.webhookId}/cloudtel`,
			};
		},
		{ timeoutMs: 300_000 },
	);
	if (!up) return;

	await test("n8n's credential test: OK for the demo account, the credential's 401 message for a wrong token", async () => {
		const data = {
			baseUrl: sandbox.url,
			accountSid: sandbox.demo.AccountSid,
			authToken: sandbox.demo.AuthToken,
		};
		const base = { ...ctx.credential, type: CREDENTIAL_TYPE };
		const good = await server.testCredential({ ...base, data });
		assert.equal(good.status, 'OK', JSON.stringify(good));
		const bad = await server.testCredential({ ...base, data: { ...data, authToken: 'wrong' } });
		assert.equal(bad.status, 'Error');
		assert.match(bad.message, /401/);
	});

	const tag = `trigger-${Date.now()}`;
	let sent = [];

	await test('the CloudTel node sends three messages whose receipt URI is the trigger (POST, GET, no secret)', async () => {
		const input = [
			{
				to: '+61412000001',
				id: `${tag}-post`,
				uri: `${urls.receipt}?secret=${SECRET}`,
				method: 'POST',
			},
			{
				to: '+61412000002',
				id: `${tag}-get`,
				uri: `${urls.receipt}?secret=${SECRET}`,
				method: 'GET',
			},
			{ to: '+61412000003', id: `${tag}-nosecret`, uri: urls.receipt, method: 'POST' },
		];
		const step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'send',
				propertySid: sandbox.demo.PropertySid,
				from: 'CloudTel',
				to: '={{ $json.to }}',
				text: 'Receipt please',
				options: {
					DeliveryReceipt: true,
					DeliveryReceiptWebhookUri: '={{ $json.uri }}',
					DeliveryReceiptWebhookMethod: '={{ $json.method }}',
					ExternalId: '={{ $json.id }}',
				},
			},
			{ input },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		sent = step.json;
		assert.equal(sent.length, 3);
		const stored = await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid });
		for (const [k, message] of sent.entries()) {
			const held = stored.find((m) => m.MessageSid === message.MessageSid);
			assert.ok(held, `message ${k} is in the sandbox`);
			assert.equal(held.DeliveryReceiptWebhookUri, input[k].uri);
			assert.equal(held.DeliveryReceiptWebhookMethod ?? 'POST', input[k].method);
		}
	});

	const receiptFor = async (sid) =>
		received(await api.executions(receipts.wf.id)).filter((j) => j.MessageSid === sid);
	const postReceipt = async (sid, secret = SECRET) => {
		const body = {
			MessageSid: sid,
			AccountSid: sandbox.demo.AccountSid,
			Status: 'Delivered',
			Timestamp: Math.floor(Date.now() / 1000),
		};
		const res = await fetch(`${urls.receipt}?secret=${secret}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: res.status, body: await res.text() };
	};
	let markers = 0;
	/**
	 * A receipt for a MessageSid of its own, sent after what a check says started nothing:
	 * once its execution is there, an execution that one would have started would be too.
	 */
	const marker = async () => {
		const sid = `marker-${tag}-${++markers}`;
		assert.equal((await postReceipt(sid)).status, 200);
		await waitFor(
			`the marker ${sid}'s execution`,
			async () => (await receiptFor(sid)).length === 1,
		);
	};
	/** The sandbox's delivered attempts of callbacks for a MessageSid, as its outbox logs them. */
	const deliveredFor = async (sid) =>
		(await sandbox.control.outbox()).Callbacks.filter((c) => c.MessageSid === sid && c.Delivered)
			.length;

	await test('a receipt POSTed to the production URL starts an execution holding it', async () => {
		const [message] = sent;
		assert.ok(message, 'needs the sent message');
		const fired = await sandbox.control.receipt(message.MessageSid, 'Delivered');
		assert.ok(
			fired.status < 300,
			`POST /_sandbox/receipts: ${fired.status} ${JSON.stringify(fired.body)}`,
		);
		const [json] = await waitFor(
			'the receipt execution',
			async () =>
				(await receiptFor(message.MessageSid)).length > 0 && receiptFor(message.MessageSid),
		);
		assert.equal(json.Event, 'DeliveryReceipt');
		assert.equal(json.Status, 'Delivered');
		assert.equal(json.ExternalId, `${tag}-post`);
		assert.equal(json.To, '+61412000001');
		assert.equal(json.AccountSid, sandbox.demo.AccountSid);
		assert.equal(json.Raw?.MessageSid, message.MessageSid, 'the raw payload is kept');
		assert.equal(JSON.stringify(json).includes(SECRET), false, 'the secret stays out of the data');
	});

	await test('a receipt sent with GET starts an execution too', async () => {
		const message = sent[1];
		assert.ok(message, 'needs the sent message');
		await sandbox.control.receipt(message.MessageSid, 'Failed');
		const [json] = await waitFor(
			'the GET receipt execution',
			async () =>
				(await receiptFor(message.MessageSid)).length > 0 && receiptFor(message.MessageSid),
		);
		assert.equal(json.Event, 'DeliveryReceipt');
		assert.equal(json.Status, 'Failed');
		assert.equal(json.ExternalId, `${tag}-get`);
	});

	await test('the same receipt again is a repeat: no second execution', async () => {
		const [message] = sent;
		assert.ok(message, 'needs the sent message');
		const before = await deliveredFor(message.MessageSid);
		await sandbox.control.receipt(message.MessageSid, 'Delivered');
		await waitFor(
			'n8n to answer the repeated receipt',
			async () => (await deliveredFor(message.MessageSid)) > before,
		);
		await marker();
		assert.equal((await receiptFor(message.MessageSid)).length, 1);
	});

	await test('a callback without the secret, or with a wrong one, is refused (401) and starts nothing', async () => {
		const message = sent[2];
		assert.ok(message, 'needs the sent message');
		const before = (await api.executions(receipts.wf.id)).length;
		await sandbox.control.receipt(message.MessageSid, 'Delivered');
		const body = {
			MessageSid: message.MessageSid,
			AccountSid: sandbox.demo.AccountSid,
			Status: 'Delivered',
			Timestamp: Math.floor(Date.now() / 1000),
		};
		const direct = await fetch(`${urls.receipt}?secret=wrong`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		assert.equal(direct.status, 401);
		const bare = await fetch(urls.receipt, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		assert.equal(bare.status, 401);
		// The sandbox's own attempts at the secret-less URL were answered 401 too.
		await waitFor('the sandbox to record its refused callback', async () => {
			const outbox = JSON.stringify(await sandbox.control.outbox());
			return outbox.includes(message.MessageSid) && outbox.includes('401');
		});
		await marker();
		assert.equal(
			(await api.executions(receipts.wf.id)).length,
			before + 1,
			'the marker alone started one',
		);
		assert.equal((await receiptFor(message.MessageSid)).length, 0);
	});

	await test(
		'100 callbacks, 20 of them repeats (10 arriving at the same moment as their first copy): 80 executions, one per MessageSid',
		async () => {
			const run = `repeats-${Date.now()}`;
			const post = (i) => postReceipt(`${run}-${i}`);
			const answers = [];
			// 80 distinct callbacks in waves of 20 sent at once; in the first wave, messages 0..9
			// are each sent twice at the same moment (what a provider retry racing its original,
			// or two n8n webhook requests in flight, look like).
			for (let wave = 0; wave < 4; wave++) {
				const ids = Array.from({ length: 20 }, (_, k) => wave * 20 + k);
				const twins = wave === 0 ? ids.slice(0, 10) : [];
				answers.push(...(await Promise.all([...ids, ...twins].map(post))));
			}
			// Then 10 plain repeats, one after another, of messages 40..49.
			for (let i = 40; i < 50; i++) answers.push(await post(i));
			assert.equal(answers.length, 100);
			assert.deepEqual(
				answers.filter((a) => a.status !== 200),
				[],
				'every callback is answered 200',
			);
			assert.equal(
				answers.filter((a) => a.body.includes('"repeat"')).length,
				20,
				'exactly the 20 repeats are acknowledged as repeats',
			);
			const mine = async () =>
				received(await api.executions(receipts.wf.id)).filter((j) =>
					String(j.MessageSid).startsWith(`${run}-`),
				);
			const got = await waitFor(
				'80 executions',
				async () => ((await mine()).length >= 80 ? mine() : undefined),
				{ timeoutMs: 120_000, intervalMs: 2000 },
			);
			await marker();
			const final = await mine();
			assert.equal(final.length, 80, `executions: ${got.length}`);
			assert.equal(
				new Set(final.map((j) => j.MessageSid)).size,
				80,
				'each MessageSid started exactly one execution',
			);
		},
		{ timeoutMs: 300_000 },
	);

	await test('a reply to a leased number, with the trigger as its Webhook URI, starts an execution holding it', async () => {
		const recipient = '+61412000009';
		const step = await runCloudTel(ctx, {
			resource: 'message',
			operation: 'send',
			propertySid: sandbox.demo.PropertySid,
			from: '',
			to: recipient,
			text: 'Reply YES to confirm',
			options: { DeliveryReceipt: false, ExternalId: `${tag}-reply` },
			replyHandling: { WebhookUri: `${urls.reply}?secret=${SECRET}`, WebhookMethod: 'POST' },
		});
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const [message] = step.json;
		assert.match(message.From, /^\+\d{8,15}$/, 'sent from a leased number');
		const reply = await sandbox.control.reply(recipient, message.From, 'YES');
		assert.equal(reply.status, 200, JSON.stringify(reply.body));
		const [json] = await waitFor('the reply execution', async () => {
			const got = received(await api.executions(replies.wf.id)).filter(
				(j) => j.OriginalMessageSid === message.MessageSid,
			);
			return got.length > 0 && got;
		});
		assert.equal(json.Event, 'Reply');
		assert.equal(json.Text, 'YES');
		assert.equal(json.From, recipient);
		assert.equal(json.To, message.From);
		assert.equal(json.MessageSid, reply.body.MessageSid);
		assert.equal(json.ExternalId, `${tag}-reply`);
	});
}

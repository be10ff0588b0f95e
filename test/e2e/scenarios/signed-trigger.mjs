// The CloudTel Trigger with a Signing Secret, in the line's running n8n: a delivery signed
// by the worker's own code (worker/dist) starts an execution; a forged one (another secret)
// and a stale one (rightly signed, timed 10 minutes ago) are answered 401 and start nothing,
// proven by a later signed delivery (a marker) whose execution arrives while theirs do not.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cloudTelTrigger, workflow } from '../lib/workflows.mjs';
import { waitFor } from '../lib/waitFor.mjs';

const require = createRequire(import.meta.url);
const {
	webhookHeaders,
} = require('../../../worker/dist/worker/src/daemon/callbacks/6-forward/webhookSignature.js');

export const title = 'CloudTel Trigger: a Signing Secret refuses forged and stale deliveries';

const TRIGGER = 'CloudTel Trigger';
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Standard Webhooks signing, written here apart from the worker's. */
function signedHere(secret, id, timestamp, body) {
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const sig = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
	return {
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': `v1,${sig}`,
	};
}

export async function run(ctx, test) {
	const server = ctx.n8n;
	const { api } = server;
	const secret = newSecret();
	const node = cloudTelTrigger(TRIGGER, { events: ['campaignFinished'], signingSecret: secret });
	const wf = workflow('e2e signed deliveries', [node]);
	const url = `${server.url}/webhook/${node.webhookId}/cloudtel`;
	const tag = `signed-${Date.now()}`;

	const up = await test(
		'n8n serves a published trigger with a Signing Secret',
		async () => {
			await server.importWorkflow(wf);
			await server.publish(wf.id);
			assert.equal((await api.workflow(wf.id)).active, true);
			// Published, its production webhook is registered a moment later: until then, 404.
			await waitFor(
				'the production webhook',
				async () => (await fetch(url, { method: 'POST', body: '{}' })).status !== 404,
				{ timeoutMs: 60_000 },
			);
		},
		{ timeoutMs: 300_000 },
	);
	if (!up) return;

	const event = (name) => ({
		id: `campaign.finished:${tag}-${name}`,
		type: 'campaign.finished',
		occurredAt: new Date().toISOString(),
		campaign: `${tag}-${name}`,
		data: { state: 'finished' },
	});
	const deliver = async (body, headers) => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'idempotency-key': body.id, ...headers },
			body: JSON.stringify(body),
		});
		return { status: res.status, text: await res.text() };
	};
	const campaigns = async () =>
		(await api.executions(wf.id))
			.map((e) => e.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json?.campaign)
			.filter(Boolean);
	/** A delivery signed as the worker signs it. */
	const genuine = (name) => {
		const body = event(name);
		return deliver(body, webhookHeaders({ secret }, body.id, JSON.stringify(body)));
	};

	await test("a delivery signed by the worker's code starts an execution", async () => {
		assert.equal((await genuine('good')).status, 200);
		await waitFor('its execution', async () => (await campaigns()).includes(`${tag}-good`));
	});

	await test('a forged delivery (another secret) and a stale one (10 minutes old) get 401 and start nothing', async () => {
		const forgedBody = event('forged');
		const forged = await deliver(
			forgedBody,
			signedHere(
				newSecret(),
				forgedBody.id,
				Math.floor(Date.now() / 1000),
				JSON.stringify(forgedBody),
			),
		);
		assert.equal(forged.status, 401, forged.text);
		assert.match(forged.text, /does not match/);
		const staleBody = event('stale');
		const stale = await deliver(
			staleBody,
			signedHere(
				secret,
				staleBody.id,
				Math.floor(Date.now() / 1000) - 600,
				JSON.stringify(staleBody),
			),
		);
		assert.equal(stale.status, 401, stale.text);
		assert.match(stale.text, /5 minutes/);
		const unsigned = await deliver(event('unsigned'), {});
		assert.equal(unsigned.status, 401, unsigned.text);
		// The marker: once its execution is there, one for the refused would be too.
		assert.equal((await genuine('marker')).status, 200);
		await waitFor('the marker', async () => (await campaigns()).includes(`${tag}-marker`));
		const all = await campaigns();
		for (const refused of ['forged', 'stale', 'unsigned'])
			assert.equal(all.includes(`${tag}-${refused}`), false, `${refused} started nothing`);
		assert.equal(all.length, 2, 'the good delivery and the marker alone');
	});
}

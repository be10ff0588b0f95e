// `npm run dev`'s credential (test/e2e/dev.mjs imports the same devCredential) sends as it
// is: its Default Property SID is the sandbox's demo property. Without one, the error names
// both places a Property SID can come from.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';
import { devCredential } from '../lib/workflows.mjs';

export const title =
	"npm run dev's credential: ready to send; without a Property SID, the error says where to put one";

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const send = {
		resource: 'message',
		operation: 'send',
		propertySid: '',
		from: 'CloudTel',
		to: '+61412000301',
		text: 'From the dev credential',
		options: { DeliveryReceipt: false },
	};

	await test('a Send with its Property SID left empty goes out through the dev credential', async () => {
		const made = devCredential(sandbox.url, sandbox.demo, 'cloudtelSandboxDevE2e');
		await ctx.n8n.importCredentials([made]);
		const step = await runCloudTel(ctx, send, { credential: { id: made.id, name: made.name } });
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.json[0].PropertySid, sandbox.demo.PropertySid);
		assert.match(step.json[0].MessageSid, /^[0-9a-f-]{36}$/);
	});

	await test("without a Default Property SID, the error names the node's Property SID field and the credential's default", async () => {
		const step = await runCloudTel(ctx, send);
		assert.equal(step.status, 'error');
		assert.equal(step.error?.message, 'Invalid Property SID: FIELD_REQUIRED');
		assert.match(
			step.error?.description ?? '',
			/this node's Property SID field, or the Default Property SID of the CloudTel API credential/,
		);
	});
}

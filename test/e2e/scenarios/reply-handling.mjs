// Map From Input shows Reply Handling whatever the hidden From field holds: n8n keeps only
// the parameters its panel shows, so a From typed earlier in Define Below used to hide
// Reply Handling and drop its value from the run.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';

export const title = 'Map From Input keeps Reply Handling, whatever the hidden From holds';

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const ref = `reply-handling-${Date.now()}`;

	await test('a From left over from Define Below does not drop Reply Handling: the message carries its reply Webhook URI', async () => {
		const hook = 'https://hooks.example.com/cloudtel-replies';
		const step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'sendBatch',
				propertySid: sandbox.demo.PropertySid,
				mapping: 'autoMap',
				from: 'MyBrand',
				options: { DeliveryReceipt: false },
				replyHandling: { WebhookUri: hook, WebhookMethod: 'POST' },
			},
			{ input: [{ To: '+61412000401', Text: 'Reply YES', ExternalId: ref }] },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.json[0].Sent, undefined, JSON.stringify(step.json[0]));
		const [stored] = (
			await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })
		).filter((m) => m.ExternalId === ref);
		assert.ok(stored, 'the message reached the sandbox');
		assert.equal(stored.WebhookUri, hook);
		assert.match(stored.From, /^\+\d{8,15}$/, 'from a leased number (the item has no From)');
	});
}

// Send Batch inside n8n: a Code node makes the items, the CloudTel node sends them as
// BatchMessages; results are paired to their inputs and a bad item takes the error output.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';

export const title =
	'Message: Send Batch from a Code node (25 messages, one invalid number on the error output)';

const BAD = 13;

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const tag = `batch-${Date.now()}`;
	// 26 items: 25 good ones and, at index 13, one whose number is not E.164.
	const input = Array.from({ length: 26 }, (_, i) => ({
		id: `${tag}-${i}`,
		to: i === BAD ? '+0412 345' : `+614${String(10_000_000 + i).slice(-8)}`,
		text: `Hello ${i} from n8n`,
	}));
	let step;
	let stored = [];

	await test('the workflow runs: Manual Trigger -> Code (26 items) -> CloudTel Send Batch', async () => {
		step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'sendBatch',
				propertySid: sandbox.demo.PropertySid,
				from: 'CloudTel',
				to: '={{ $json.to }}',
				text: '={{ $json.text }}',
				options: { ExternalId: '={{ $json.id }}', DeliveryReceipt: false },
				batchSize: 1000,
			},
			{ input, onError: 'continueErrorOutput' },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		stored = (await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })).filter(
			(m) => String(m.ExternalId).startsWith(`${tag}-`),
		);
	});

	await test('25 messages reach the sandbox, with the text and number of their items', async () => {
		assert.equal(stored.length, 25);
		for (const message of stored) {
			const i = Number(message.ExternalId.split('-').pop());
			assert.notEqual(i, BAD);
			assert.equal(message.To, input[i].to);
			assert.equal(message.Text, input[i].text);
		}
	});

	await test('25 items on the main output carry MessageSids and are paired to their inputs, in order', async () => {
		assert.ok(step, 'needs the run');
		assert.equal(step.items.length, 25);
		const sids = new Map(stored.map((m) => [m.ExternalId, m.MessageSid]));
		const expected = input.map((_, i) => i).filter((i) => i !== BAD);
		step.items.forEach((item, k) => {
			const i = expected[k];
			assert.equal(item.pairedItem?.item, i, `output ${k} paired to input ${i}`);
			assert.match(item.json.MessageSid, /^[0-9a-f-]{36}$/);
			assert.equal(item.json.ExternalId, input[i].id);
			assert.equal(item.json.MessageSid, sids.get(input[i].id), 'the MessageSid the sandbox holds');
		});
	});

	await test('the invalid number goes to the error output, paired to its input, naming the field', async () => {
		assert.ok(step, 'needs the run');
		assert.equal(step.errorItems.length, 1);
		const [item] = step.errorItems;
		assert.equal(item.pairedItem?.item, BAD);
		// The node's own json reaches the error output on both lines (see failed-items.mjs),
		// with the input item's fields beside it.
		assert.equal(
			item.json.Message,
			'Invalid To: INVALID_PHONENUMBER_FORMAT',
			`names the field: ${JSON.stringify(item.json)}`,
		);
		assert.equal(item.json.ErrorCode, 'INVALID_PHONENUMBER_FORMAT');
		assert.deepEqual(item.json.FieldNames, ['To']);
		assert.equal(item.json.id, input[BAD].id, "the input item's own fields");
	});

	await runAutoMap(ctx, test);
}

/** Message Fields = Map From Input: each item carries its message under the API's names. */
async function runAutoMap(ctx, test) {
	const { sandbox } = ctx;
	const tag = `automap-${Date.now()}`;
	const input = [
		{ To: '+61431000001', Text: 'Auto one', ExternalId: `${tag}-0` },
		{ to: '+61431000002', text: 'Auto two', externalId: `${tag}-1`, From: 'Bistro' },
		{ To: '+61431000003', ExternalId: `${tag}-2` },
	];
	let step;
	await test('Map From Input: items carry To, Text, ExternalId and From under their API names', async () => {
		step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'sendBatch',
				propertySid: sandbox.demo.PropertySid,
				mapping: 'autoMap',
				options: { DeliveryReceipt: false },
			},
			{ input, onError: 'continueErrorOutput' },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const stored = (
			await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })
		).filter((m) => String(m.ExternalId).startsWith(`${tag}-`));
		assert.deepEqual(stored.map((m) => [m.ExternalId, m.To, m.Text]).sort(), [
			[`${tag}-0`, '+61431000001', 'Auto one'],
			[`${tag}-1`, '+61431000002', 'Auto two'],
		]);
		assert.equal(stored.find((m) => m.ExternalId === `${tag}-1`).From, 'Bistro');
		assert.deepEqual(
			step.items.map((i) => i.pairedItem?.item),
			[0, 1],
		);
		assert.equal(step.errorItems.length, 1);
		assert.equal(step.errorItems[0].pairedItem?.item, 2);
		assert.match(step.errorItems[0].json.Message, /\bText\b/);
	});
}

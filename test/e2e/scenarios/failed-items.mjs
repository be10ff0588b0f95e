// What a failed item tells a user inside real n8n: with an error output, the item that
// failed arrives there with its ErrorCode, the full explanation, the field, the value sent
// and the input item's own fields (a customerId), paired to its input; items that were sent
// keep their input's fields too. n8n rewrites the json of items that still hold an `error`
// after the node ran, and re-runs a node on Retry On Fail when its first item has
// `json.error`: neither may happen here.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';

export const title =
	'Failed items: code, explanation, field, value and input fields, joined back to contacts';

const EXPLANATION =
	/^To must be an E\.164 number: \+ then 8 to 15 digits, the first not 0 \(got "0412 345 678"\)/;

function assertFailed(json, { customerId, outcome = 'Sent' }) {
	assert.equal(json.customerId, customerId, `the input's own fields: ${JSON.stringify(json)}`);
	assert.equal(json[outcome], false);
	assert.equal(json.error, undefined, 'no json.error, which Retry On Fail would read');
}

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const tag = `failed-${Date.now()}`;

	await test('Send Batch, error output: the bad number arrives with code, explanation, field, value and customerId', async () => {
		const input = [
			{ customerId: 'C-1', phone: '+61412000201', ref: `${tag}-0` },
			{ customerId: 'C-2', phone: '0412 345 678', ref: `${tag}-1` },
			{ customerId: 'C-3', phone: '+61412000203', ref: `${tag}-2` },
		];
		const step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'sendBatch',
				propertySid: sandbox.demo.PropertySid,
				from: 'CloudTel',
				to: '={{ $json.phone }}',
				text: 'Hello',
				options: { ExternalId: '={{ $json.ref }}', DeliveryReceipt: false },
			},
			{ input, onError: 'continueErrorOutput' },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.deepEqual(
			step.items.map((i) => [i.pairedItem?.item, i.json.customerId, typeof i.json.MessageSid]),
			[
				[0, 'C-1', 'string'],
				[2, 'C-3', 'string'],
			],
			'sent items keep their input fields',
		);
		assert.equal(step.errorItems.length, 1);
		const [failed] = step.errorItems;
		assert.equal(failed.pairedItem?.item, 1);
		assertFailed(failed.json, { customerId: 'C-2' });
		assert.equal(failed.json.phone, '0412 345 678');
		assert.equal(failed.json.ErrorCode, 'INVALID_PHONENUMBER_FORMAT');
		assert.equal(failed.json.Message, 'Invalid To: INVALID_PHONENUMBER_FORMAT');
		assert.match(failed.json.Description, EXPLANATION);
		assert.deepEqual(failed.json.FieldNames, ['To']);
		assert.deepEqual(failed.json.Errors, [
			{
				FieldName: 'To',
				ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
				Message: failed.json.Errors[0].Message,
				Value: '0412 345 678',
			},
		]);
		assert.match(failed.json.Errors[0].Message, EXPLANATION);
	});

	await test('Send with Retry On Fail and a bad first item: the node runs once, the good one is sent once, the bad one explained', async () => {
		const ref = `${tag}-retry`;
		const step = await runCloudTel(
			ctx,
			{
				resource: 'message',
				operation: 'send',
				propertySid: sandbox.demo.PropertySid,
				from: 'CloudTel',
				to: '={{ $json.phone }}',
				text: 'Once',
				options: { ExternalId: ref, DeliveryReceipt: false },
			},
			{
				input: [
					{ customerId: 'C-9', phone: '0412 345 678' },
					{ customerId: 'C-10', phone: '+61412000210' },
				],
				onError: 'continueErrorOutput',
				extra: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			},
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		assert.equal(step.execution.data.resultData.runData.CloudTel.length, 1);
		const stored = (
			await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })
		).filter((m) => m.ExternalId === ref);
		assert.equal(stored.length, 1, 'sent once');
		assert.equal(step.items[0].json.customerId, 'C-10');
		assertFailed(step.errorItems[0].json, { customerId: 'C-9' });
		assert.match(step.errorItems[0].json.Description, EXPLANATION);
	});

	await test('Online Login Create, regular output: a refused e-mail carries Created: false, the code, the value and the input fields', async () => {
		const step = await runCloudTel(
			ctx,
			{
				resource: 'onlineLogin',
				operation: 'create',
				propertySid: sandbox.demo.PropertySid,
				email: '={{ $json.email }}',
				password: 'Str0ng!Passw0rd',
				firstName: 'Fail',
				lastName: 'Item',
				scopes: ['Manage'],
			},
			{ input: [{ customerId: 'C-20', email: 'not-an-email' }], onError: 'continueRegularOutput' },
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		const [json] = step.json;
		assertFailed(json, { customerId: 'C-20', outcome: 'Created' });
		assert.equal(json.FieldNames[0], 'Email');
		assert.equal(json.Errors[0].Value, 'not-an-email');
		assert.ok(!JSON.stringify(json).includes('Str0ng!Passw0rd'), 'never the password');
	});
}

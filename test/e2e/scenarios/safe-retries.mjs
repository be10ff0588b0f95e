// Retry On Fail with a create: n8n re-runs a node whose first output item carries
// `json.error`, so a failed first item used to make the node create every other item again.
// Failed creates now carry `Created: false` instead: one try, each login created once.
import assert from 'node:assert/strict';
import { runCloudTel } from '../lib/steps.mjs';

export const title = 'Retry On Fail never creates twice';

export async function run(ctx, test) {
	const { sandbox } = ctx;

	await test('Online Login > Create, Retry On Fail on, first item bad: the good one is created once and output once', async () => {
		const email = `retry.${Date.now()}@example.com`;
		const step = await runCloudTel(
			ctx,
			{
				resource: 'onlineLogin',
				operation: 'create',
				propertySid: sandbox.demo.PropertySid,
				email: '={{ $json.email }}',
				password: 'Str0ng!Passw0rd',
				firstName: 'Retry',
				lastName: 'Safe',
				scopes: ['Manage'],
			},
			{
				input: [{ email: 'not-an-email' }, { email }],
				onError: 'continueErrorOutput',
				extra: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			},
		);
		assert.equal(step.status, 'success', JSON.stringify(step.error));
		// A second try would have met DUPLICATE_EMAIL for the good item and put it on the error output.
		assert.deepEqual(
			step.json.map((j) => j.Email),
			[email],
		);
		assert.equal(step.errorItems.length, 1);
		assert.equal(step.errorItems[0].pairedItem?.item, 0);
		// The node's own item, {Created: false, ...}, reaches the error output on both lines.
		const failed = step.errorItems[0].json;
		assert.equal(failed.Created, false, JSON.stringify(failed));
		assert.deepEqual(failed.FieldNames, ['Email']);
		assert.equal(failed.email, 'not-an-email', "the input item's own fields");
		const listed = await sandbox.api('GET', '/v2/OnlineLogins?Results_Count=1000');
		assert.equal(listed.status, 200);
		assert.equal(listed.body.OnlineLogins.filter((l) => l.Email === email).length, 1);
		const runs = step.execution.data.resultData.runData.CloudTel;
		assert.equal(runs.length, 1);
	});
}

// The Campaign node's guardrails in real n8n against a real `cloudtel worker` and the sandbox:
// Countries refuses a foreign number, Allow Landlines left off refuses a fixed line, and Max
// Cost with Price Per Segment pauses the campaign before a message would pass the cap; Max
// Failure Rate and Frequency Cap are handed to the worker.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startCloudtelWorker, workerCredential } from '../lib/cloudtelWorker.mjs';
import {
	chain,
	cloudTelCampaign,
	code,
	executionError,
	manualTrigger,
	nodeError,
	outputOf,
	workflow,
} from '../lib/workflows.mjs';
import { waitFor } from '../lib/waitFor.mjs';

export const title =
	'CloudTel Campaign: guardrails (countries, landlines, spend cap, failure rate, frequency cap) as Options';

const CAMPAIGN = 'CloudTel Campaign';
// Five AU mobiles, a GB mobile, an AU landline.
const CONTACTS = [
	...[0, 1, 2, 3, 4].map((i) => `+6141357000${i}`),
	'+447400123456',
	'+61293744000',
];

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const dir = join(ctx.root, 'campaign-guardrails');
	mkdirSync(dir, { recursive: true });
	const name = `guarded-${ctx.install.major}-${Date.now().toString(36)}`;
	const credId = `cloudtelWorkerGuard${ctx.install.major}`;
	let worker;

	const up = await test(
		'a cloudtel worker with its campaign API',
		async () => {
			worker = await startCloudtelWorker({ dir, sandbox });
			ctx.track({ stopServer: () => worker.stop() });
			await ctx.n8n.importCredentials([
				workerCredential(credId, worker, `guard ${ctx.install.major}`),
			]);
		},
		{ timeoutMs: 120_000 },
	);
	if (!up) return;

	await test(
		'Start with Countries AU, Max Cost 0.02 at 0.01 a segment: the GB number and the landline end invalid, two messages go, the campaign pauses',
		async () => {
			const campaign = cloudTelCampaign(
				CAMPAIGN,
				{
					operation: 'start',
					campaignName: name,
					mapping: 'autoMap',
					propertySid: sandbox.demo.PropertySid,
					text: 'Hi {{first_name}}',
					options: {
						toColumn: 'phone',
						receipts: false,
						rate: 0,
						batchSize: 1,
						countries: 'AU',
						maxCost: 0.02,
						pricePerSegment: 0.01,
						maxFailureRate: 0.5,
						frequencyCap: '3/7d',
					},
				},
				{ credential: { id: credId, name: `guard ${ctx.install.major}` } },
			);
			const js = `return ${JSON.stringify(CONTACTS)}.map((phone, i) => ({ json: { phone, first_name: 'C' + i } }));`;
			const nodes = [manualTrigger(), code('Contacts', js), campaign];
			const wf = workflow(`guardrails ${name}`, nodes, chain(...nodes));
			await ctx.n8n.importWorkflow(wf);
			const execution = await ctx.n8n.execute(wf.id, { timeoutMs: 120_000 });
			assert.equal(
				execution.status,
				'success',
				JSON.stringify(nodeError(execution, CAMPAIGN) ?? executionError(execution))?.slice(0, 2000),
			);
			assert.equal(outputOf(execution, CAMPAIGN)[0].json.handedOver, CONTACTS.length);
			const status = await waitFor(
				'the campaign paused by its spend cap',
				async () => {
					const { body } = await worker.api('GET', `/api/campaigns/${name}`);
					return body.campaign?.state === 'paused' && body.campaign;
				},
				{ timeoutMs: 60_000, intervalMs: 500 },
			);
			assert.deepEqual(
				{
					accepted: status.counts.accepted,
					invalid: status.counts.invalid,
					pending: status.counts.pending,
				},
				{ accepted: 2, invalid: 2, pending: 3 },
			);
			// Max Failure Rate and Frequency Cap reach the worker as its settings.
			assert.deepEqual(
				{
					maxFailureRate: status.settings.maxFailureRate,
					frequencyCap: status.settings.frequencyCap,
				},
				{ maxFailureRate: 0.5, frequencyCap: '3/7d' },
			);
			const sent = (await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid }))
				.filter((m) => String(m.ExternalId ?? '').startsWith(`${name}:`))
				.map((m) => m.To);
			assert.equal(sent.length, 2, JSON.stringify(sent));
			assert.ok(
				!sent.includes('+447400123456') && !sent.includes('+61293744000'),
				JSON.stringify(sent),
			);
		},
		{ timeoutMs: 240_000 },
	);
}

// A campaign with variants from a workflow, in real n8n against a real `cloudtel worker` and
// the sandbox: the CloudTel Campaign node's Variants, Test Share, Winner By and Decide After
// go to the worker's campaign API; the worker sends the test split between the two texts,
// decides by itself (Decide After 0s: no measure differs, so the first text wins the tie) and
// sends the rest of the list with the winner.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCloudtelWorker, workerCredential } from '../lib/cloudtelWorker.mjs';
import { repoRoot } from '../lib/package.mjs';
import { executionError, nodeError, outputOf, workflow } from '../lib/workflows.mjs';
import { waitFor } from '../lib/waitFor.mjs';

export const title =
	'CloudTel Campaign with variants: the test split between two texts, the rest sent with the winner';

const COUNT = 40;
const TEMPLATE = JSON.parse(
	readFileSync(join(repoRoot, 'examples', 'n8n-campaign.workflow.json'), 'utf8'),
);
const CAMPAIGN = 'CloudTel Campaign';
const FIRST = 'Hi {{first_name}}, our sale starts today';
const SECOND = 'Hi {{first_name}}, 20% off everything today only';

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const dir = join(ctx.root, 'campaign-variants');
	mkdirSync(dir, { recursive: true });
	const name = `e2e-variants-${ctx.install.major}-${Date.now().toString(36)}`;
	const credId = `cloudtelWorkerVariants${ctx.install.major}`;
	let worker;

	const up = await test('a cloudtel worker with its campaign API', async () => {
		worker = await startCloudtelWorker({ dir, sandbox });
		ctx.track({ stopServer: () => worker.stop() });
		await ctx.n8n.importCredentials([workerCredential(credId, worker)]);
	});
	if (!up) return;

	await test(
		'Start with Variants: the test goes out split between the texts, the rest with the winner',
		async () => {
			const names = ['Start', 'Contacts', CAMPAIGN];
			const nodes = TEMPLATE.nodes
				.filter((n) => names.includes(n.name))
				.map((n) => structuredClone(n))
				.map((n) => {
					if (n.name === 'Contacts')
						n.parameters.jsCode = `return Array.from({ length: ${COUNT} }, (_, i) => ({ json: { phone: '+61413' + String(i).padStart(6, '0'), first_name: 'C' + i } }));`;
					if (n.name === CAMPAIGN) {
						Object.assign(n.parameters, {
							operation: 'start',
							campaignName: name,
							propertySid: sandbox.demo.PropertySid,
							text: FIRST,
						});
						n.parameters.options = {
							from: 'CloudTel',
							rate: 0,
							receipts: false,
							variants: [SECOND],
							testShare: 0.5,
							winnerBy: 'delivered',
							decideAfter: '0s',
						};
						n.credentials = { cloudTelWorkerApi: { id: credId, name: 'CloudTel worker' } };
					}
					return n;
				});
			const connections = Object.fromEntries(
				Object.entries(TEMPLATE.connections).filter(([from]) => names.includes(from)),
			);
			const wf = workflow(`${TEMPLATE.name}: variants`, nodes, connections);
			await ctx.n8n.importWorkflow(wf);
			const execution = await ctx.n8n.execute(wf.id, { timeoutMs: 120_000 });
			assert.equal(
				execution.status,
				'success',
				JSON.stringify(nodeError(execution, CAMPAIGN) ?? executionError(execution))?.slice(0, 2000),
			);
			const [started] = outputOf(execution, CAMPAIGN).map((i) => i.json);
			assert.equal(started.campaign, name);
			assert.deepEqual(started.settings?.variants ?? [SECOND], [SECOND]);

			const messagesOf = async () =>
				(await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })).filter((m) =>
					String(m.ExternalId ?? '').startsWith(`${name}:`),
				);
			const all = await waitFor('every recipient sent', async () => {
				const m = await messagesOf();
				return m.length >= COUNT ? m : undefined;
			});
			assert.equal(all.length, COUNT);
			assert.equal(new Set(all.map((m) => m.To)).size, COUNT, 'nobody twice');
			const second = all.filter((m) => m.ExternalId.startsWith(`${name}:v2:`));
			const first = all.filter((m) => m.ExternalId.startsWith(`${name}:v1:`));
			assert.ok(second.length > 2, `text 2 went to part of the test (${second.length})`);
			assert.equal(first.length + second.length, COUNT, 'every ExternalId names its text');
			for (const m of second) assert.match(m.Text, /20% off everything today only$/);
			// Text 2 went to its half of the test only: the rest (text 1 won the tie) is text 1's.
			for (const m of first) assert.match(m.Text, /our sale starts today$/);
			assert.ok(first.length > second.length, 'the rest went with text 1');
			// The campaign API's Status (what the node's Status operation shows): a figure per text and the winner.
			const status = await waitFor('the campaign finished', async () => {
				const r = await worker.api('GET', `/api/campaigns/${name}`);
				return r.body?.campaign?.state === 'finished' ? r.body.campaign : undefined;
			});
			assert.deepEqual(
				status.variants.map((v) => [v.text, v.rows]),
				[
					[FIRST, first.length],
					[SECOND, second.length],
				],
			);
			assert.equal(status.variants[1].clicks, 0);
			assert.equal(status.winner.index, 1);
			assert.equal(status.winner.by, 'delivered');
			assert.equal(status.winner.byHand, false);
		},
		{ timeoutMs: 300_000 },
	);
}

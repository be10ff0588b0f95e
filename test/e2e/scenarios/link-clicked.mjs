// Issue 41: a tracked link clicked reaches a published CloudTel Trigger as "Link Clicked". A
// real cloudtel worker (events.url: the trigger's production URL) serves the links of a CLI
// campaign sent with --track-links; the test follows one over HTTP as a phone would, and
// reads the execution back through n8n's public API.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startCloudtelWorker } from '../lib/cloudtelWorker.mjs';
import { repoRoot } from '../lib/package.mjs';
import { waitFor } from '../lib/waitFor.mjs';
import { cloudTelTrigger, workflow } from '../lib/workflows.mjs';

export const title = 'CloudTel Trigger: a click on a tracked link starts a Link Clicked execution';

const SECRET = 's3cret-for-links-e2e';
const TRIGGER = 'CloudTel Trigger';
const SHOP = 'https://shop.example.com/e2e';
const NUMBER = '+61412000041';

export async function run(ctx, test) {
	const server = ctx.n8n;
	const node = cloudTelTrigger(TRIGGER, { events: ['linkClicked'], secret: SECRET });
	const wf = workflow('e2e link clicked', [node]);
	const dir = join(ctx.root, 'link-clicked');
	mkdirSync(dir, { recursive: true });
	let worker;
	let link;

	const up = await test(
		'a worker with links.baseUrl sends its events to the published trigger',
		async () => {
			await server.importWorkflow(wf);
			await server.publish(wf.id);
			const events = `${server.url}/webhook/${node.webhookId}/cloudtel?secret=${SECRET}`;
			worker = await startCloudtelWorker({
				dir,
				sandbox: ctx.sandbox,
				config: {
					events: { url: events, types: ['click'] },
					links: { baseUrl: 'https://go.example.com/l', scanWindowSeconds: 0 },
				},
			});
			ctx.track({ stopServer: () => worker.stop() });
		},
		{ timeoutMs: 300_000 },
	);
	if (!up) return;

	await test('a campaign with --track-links sends a short link, which the worker redirects (302)', async () => {
		const csv = join(dir, 'list.csv');
		writeFileSync(csv, `Phone\n${NUMBER}\n`);
		// Not execFileSync: the sandbox answers from this very process.
		await promisify(execFile)(
			process.execPath,
			[
				join(repoRoot, 'worker', 'bin', 'cloudtel.js'),
				'campaign',
				'run',
				'--csv',
				csv,
				'--property',
				ctx.sandbox.demo.PropertySid,
				'--text',
				`Our sale: ${SHOP}`,
				'--db',
				join(dir, 'cloudtel-worker.db'),
				'--name',
				'e2e-links',
				'--track-links',
				'--link-base',
				'https://go.example.com/l',
			],
			{
				env: {
					...process.env,
					CLOUDTEL_BASE_URL: ctx.sandbox.url,
					CLOUDTEL_ACCOUNT_SID: ctx.sandbox.demo.AccountSid,
					CLOUDTEL_AUTH_TOKEN: ctx.sandbox.demo.AuthToken,
				},
			},
		);
		// The sandbox is shared by every scenario of the run (queue mode alone sends 2,000): page on.
		let sent;
		for (let token = ''; sent === undefined; ) {
			const q = new URLSearchParams({
				AccountSid: ctx.sandbox.demo.AccountSid,
				Results_Count: '1000',
				...(token ? { PageToken: token } : {}),
			});
			const page = await (await fetch(`${ctx.sandbox.url}/_sandbox/messages?${q}`)).json();
			sent = page.Messages.find((m) => m.ExternalId === 'e2e-links:2');
			if (!page.NextPageToken) break;
			token = page.NextPageToken;
		}
		assert.ok(sent, "the sandbox accepted the campaign's message to e2e-links:2");
		const token = /https:\/\/go\.example\.com\/l\/([A-Za-z0-9_-]{10})$/.exec(sent.Text)?.[1];
		assert.ok(token, sent.Text);
		link = `${worker.url}/l/${token}`;
		const r = await fetch(link, { redirect: 'manual' });
		assert.equal(r.status, 302);
		assert.equal(r.headers.get('location'), SHOP);
	});

	await test('the trigger starts one Link Clicked execution with the number and the URL', async () => {
		const executions = await waitFor(
			'the Link Clicked execution',
			async () => {
				const list = await server.api.executions(wf.id);
				return list.length > 0 ? list : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
		const json =
			executions[0].data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json;
		assert.equal(json?.Event, 'LinkClicked', JSON.stringify(json));
		assert.equal(json.number, NUMBER);
		assert.equal(json.url, SHOP);
		assert.equal(json.campaign, 'e2e-links');
	});
}

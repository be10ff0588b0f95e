// The CloudTel Campaign node against the worker's real campaign API (its fastify plugin, as
// the worker mounts it, on a SQLite database) sending through the sandbox: what the node
// makes of the worker's own answers and refusals.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { API_TOKEN, ApiUnderTest } from '../api/apiHarness';
import { until } from '../daemon/harness';
import { campaignContext, testWorkerCredential } from './fakeN8nCampaign';
import { control } from './sandboxControl';
import { tempDir } from '../../support/tempDir';

/** Every message the sandbox holds whose ExternalId starts with the campaign's name (1,000 a page). */
async function sentFor(campaign: string): Promise<Array<{ To: string; ExternalId?: string }>> {
	const out: Array<{ To: string; ExternalId?: string }> = [];
	let token = '';
	do {
		const query = new URLSearchParams({
			PropertySid: sandbox.demo.PropertySid,
			...(token ? { PageToken: token } : {}),
		});
		const page = await control<{
			Messages: Array<{ To: string; ExternalId?: string }>;
			NextPageToken?: string;
		}>(sandbox, 'GET', `/messages?${query}`);
		out.push(...page.Messages);
		token = page.NextPageToken ?? '';
	} while (token);
	return out.filter((m) => String(m.ExternalId).startsWith(`${campaign}:`));
}

let sandbox: RunningSandbox;
let api: ApiUnderTest;
let dir: string;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	dir = tempDir('campaign-node-');
	api = await ApiUnderTest.start(sandbox, { kind: 'sqlite', path: join(dir, 'worker.db') });
});
afterAll(async () => {
	await api.close();
	await sandbox.close();
	rmSync(dir, { recursive: true, force: true });
});

const people = (n: number, from = 0): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({
		json: { phone: `+614916${String(from + i).padStart(5, '0')}`, first_name: `N${from + i}` },
	}));

function run(params: Record<string, unknown>, items?: INodeExecutionData[], apiToken = API_TOKEN) {
	const ctx = campaignContext({ credentials: { url: api.url, apiToken }, params, items });
	return new CloudTelCampaign().execute.call(ctx);
}

const start = (name: string, extra: Record<string, unknown> = {}) => ({
	operation: 'start',
	campaignName: name,
	propertySid: sandbox.demo.PropertySid,
	text: 'Hi {{first_name}}',
	options: { rate: 0, from: 'CloudTel', receipts: false },
	...extra,
});

describe("CloudTel Campaign against the worker's campaign API", () => {
	it('Start hands 10,002 items over in two pages; the worker sends each once; a re-run sends nothing more', async () => {
		const items = [
			...people(10_000),
			{ json: { phone: 'not a number', first_name: 'X' } },
			{ json: { phone: '0412 345 678', first_name: 'Y' } },
		];
		const [[out]] = await run(start('two-pages'), items);
		expect(out.json).toMatchObject({
			campaign: 'two-pages',
			handedOver: 10_002,
			pages: 2,
			alreadyStarted: false,
			counts: { recipients: 10_002 },
		});
		const done = await until(async () => {
			const [[status]] = await run({ operation: 'getStatus', campaignName: 'two-pages' });
			return status.json.state === 'finished' ? status.json : undefined;
		}, 60_000);
		expect(done.counts).toMatchObject({
			recipients: 10_002,
			accepted: 10_000,
			invalid: 2,
			pending: 0,
		});
		const [[again]] = await run(start('two-pages'), items);
		expect(again.json).toMatchObject({ alreadyStarted: true, handedOver: 0, state: 'finished' });
		const sent = await sentFor('two-pages');
		expect(sent).toHaveLength(10_000);
		expect(new Set(sent.map((m) => m.To)).size).toBe(10_000);
		const report = (await run({ operation: 'getReport', campaignName: 'two-pages' }))[0][0].json;
		expect(report.campaign).toBe('two-pages');
		// The recipients not sent, by number and reason in n8n's words, a page at a time.
		expect(report.notSent).toEqual([
			{
				recipient: 10_001,
				status: 'invalid',
				code: expect.any(String),
				message: expect.any(String),
			},
			{
				recipient: 10_002,
				status: 'invalid',
				code: expect.any(String),
				message: expect.stringMatching(/no Default Country was given$/),
			},
		]);
		expect(report.notSentMore).toBe(false);
		const first = (
			await run({ operation: 'getReport', campaignName: 'two-pages', notSentLimit: 1 })
		)[0][0].json;
		expect([
			(first.notSent as Array<{ recipient: number }>).map((r) => r.recipient),
			first.notSentMore,
		]).toEqual([[10_001], true]);
		const page = (
			await api.call('GET', '/api/campaigns/two-pages/report?notSentLimit=1&notSentAfter=10002')
		).body.notSent;
		expect(page).toEqual({
			recipients: [expect.objectContaining({ line: 10_003, status: 'invalid' })],
		});
	}, 120_000);

	it('names the settings the worker holds otherwise', async () => {
		const error = await run(start('two-pages', { text: 'Bye {{first_name}}' }), people(1)).catch(
			(e) => e,
		);
		expect(error.message).toBe(
			'CloudTel worker: campaign "two-pages" exists with other settings: text',
		);
		expect(error.description).toContain(
			'text: stored "Hi {{first_name}}", given "Bye {{first_name}}"',
		);
	});

	it('Preview counts what the worker would send and shows the first three texts; it stores nothing, so after a typo it is run again and Start starts the same name', async () => {
		const items = [...people(3, 500), { json: { phone: '123', first_name: 'Y' } }];
		const typo = await run(
			{ ...start('previewed', { text: 'Hi {{frist_name}}' }), operation: 'preview' },
			items,
		).catch((e) => e);
		expect(typo.message).toMatch(/frist_name/);
		expect(typo.message).not.toMatch(/preview-/);
		// In n8n's words: the items' fields, not a CSV's columns.
		expect(`${typo.message}\n${typo.description}`).not.toMatch(/CSV|column/);
		expect(`${typo.message}\n${typo.description}`).toMatch(
			/the recipients have no such field \(fields: phone, first_name\)/,
		);
		const [[preview]] = await run({ ...start('previewed'), operation: 'preview' }, items);
		expect(preview.json).toMatchObject({
			campaign: 'previewed',
			recipients: 4,
			valid: 3,
			invalid: 1,
		});
		expect(preview.json.samples).toEqual([
			{ recipient: 1, to: '+61491600500', text: 'Hi N500', segments: 1 },
			{ recipient: 2, to: '+61491600501', text: 'Hi N501', segments: 1 },
			{ recipient: 3, to: '+61491600502', text: 'Hi N502', segments: 1 },
		]);
		expect(preview.json.problems).toEqual([
			{
				recipient: 4,
				code: expect.any(String),
				message: expect.stringMatching(/no Default Country was given$/),
			},
		]);
		expect((await api.call('GET', '/api/campaigns')).body.campaigns).not.toContainEqual(
			expect.objectContaining({ name: expect.stringMatching(/^previe/) }),
		);
		const [[started]] = await run(
			start('previewed', {
				options: { rate: 0, from: 'CloudTel', receipts: false, smartEncoding: true },
			}),
			items,
		);
		expect(started.json).toMatchObject({
			campaign: 'previewed',
			alreadyStarted: false,
			handedOver: 4,
		});
	});

	it('other items under the name of a draft are refused, naming the page', async () => {
		await api.call('PUT', '/api/campaigns/paged', {
			property: sandbox.demo.PropertySid,
			text: 'Hi {{first_name}}',
			rate: 0,
			from: 'CloudTel',
			receipts: false,
		});
		await api.call('PUT', '/api/campaigns/paged/pages/1', {
			recipients: people(2, 700).map((i) => i.json),
		});
		const error = await run(start('paged'), people(4, 900)).catch((e) => e);
		expect(error.context.code).toBe('page_conflict');
		expect(error.description).toMatch(/^Page 1 of 1 \(recipients 1 to 4\)\./);
	});

	it('Delete deletes a draft and an ended campaign, whose name is then free; one still sending is refused', async () => {
		expect((await run({ operation: 'deleteCampaign', campaignName: 'paged' }))[0][0].json).toEqual({
			campaign: 'paged',
			deleted: true,
			state: 'draft',
		});
		expect((await api.call('GET', '/api/campaigns/paged')).status).toBe(404);
		await run(
			start('ends', { options: { rate: 1, from: 'CloudTel', receipts: false } }),
			people(30, 3000),
		);
		const refused = await run({ operation: 'deleteCampaign', campaignName: 'ends' }).catch(
			(e) => e,
		);
		expect(refused.message).toMatch(
			/^CloudTel worker: campaign "ends" is (sending|scheduled): cancel it first/,
		);
		await run({ operation: 'cancel', campaignName: 'ends' });
		// Refused while its run settles the cancel ("delete it in a moment"), then deleted.
		const deleted = await until(
			async () =>
				(
					await run({ operation: 'deleteCampaign', campaignName: 'ends' }).catch((e) =>
						/still settling/.test(e.message) ? undefined : Promise.reject(e),
					)
				)?.[0][0].json,
			20_000,
		);
		expect(deleted).toMatchObject({ deleted: true, state: 'cancelled' });
		const [[again]] = await run(start('ends', { text: 'Bye {{first_name}}' }), people(1, 3100));
		expect(again.json).toMatchObject({ campaign: 'ends', alreadyStarted: false, handedOver: 1 });
	}, 60_000);

	it("Pause, Resume and Cancel move the campaign; an unknown one is the worker's 404 in words", async () => {
		await run(
			start('life', { options: { rate: 1, from: 'CloudTel', receipts: false } }),
			people(50, 2000),
		);
		expect((await run({ operation: 'pause', campaignName: 'life' }))[0][0].json.state).toBe(
			'paused',
		);
		expect((await run({ operation: 'resume', campaignName: 'life' }))[0][0].json.state).toMatch(
			/sending|scheduled/,
		);
		expect((await run({ operation: 'cancel', campaignName: 'life' }))[0][0].json.state).toBe(
			'cancelled',
		);
		const error = await run({ operation: 'getStatus', campaignName: 'nobody-here' }).catch(
			(e) => e,
		);
		expect(error.message).toMatch(/^CloudTel worker: .*nobody-here/);
	});

	it("the credential's test passes with the worker's token and words a wrong one", async () => {
		expect((await testWorkerCredential({ url: api.url, apiToken: API_TOKEN })).status).toBe('OK');
		expect(
			(await testWorkerCredential({ url: api.url, apiToken: 'wrong-token-wrong-token' })).message,
		).toMatch(/refused the API Token \(401\)/);
	});
});

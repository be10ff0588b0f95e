import type { INodeExecutionData } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCampaignSettings } from '../../../api';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';
import { contractWorker, type ContractWorker } from './contractWorker';
import { asN8nShows } from './fakeN8n';
import { campaignContext, expression, testWorkerCredential } from './fakeN8nCampaign';

const PROPERTY = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
let worker: ContractWorker;

beforeAll(async () => {
	worker = await contractWorker();
});
afterAll(async () => worker.close());

const people = (n: number, tag = 'p'): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({
		json: { phone: `+614${String(10_000_000 + i).slice(-8)}`, first_name: `${tag}${i}` },
	}));

function run(
	params: Record<string, unknown>,
	items?: INodeExecutionData[],
	onError?: 'continueErrorOutput' | 'continueRegularOutput',
	credentials = { url: worker.url, apiToken: worker.token },
) {
	const ctx = campaignContext({ credentials, params, items, onError });
	return { ctx, result: new CloudTelCampaign().execute.call(ctx) };
}

const start = (name: string, extra: Record<string, unknown> = {}) => ({
	operation: 'start',
	campaignName: name,
	propertySid: PROPERTY,
	text: 'Hi {{first_name}}',
	options: { rate: 10 },
	...extra,
});

describe('CloudTel Campaign: Start', () => {
	it('PUTs the settings, the items in pages of 10,000 by number, starts with the page count, and outputs one item', async () => {
		const items = people(25_001);
		const { ctx, result } = run(start('spring'), items);
		const [out] = await result;
		expect(ctx.sent.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
			'PUT /api/campaigns/spring',
			'PUT /api/campaigns/spring/pages/1',
			'PUT /api/campaigns/spring/pages/2',
			'PUT /api/campaigns/spring/pages/3',
			'POST /api/campaigns/spring/start',
		]);
		expect(ctx.sent[0].headers.Authorization).toBe(`Bearer ${worker.token}`);
		expect(ctx.sent[0].body).toEqual(
			checkCampaignSettings({ property: PROPERTY, text: 'Hi {{first_name}}', rate: 10 }).settings,
		);
		const pages = ctx.sent.slice(1, 4).map((c) => (c.body as { recipients: unknown[] }).recipients);
		expect(pages.map((p) => p.length)).toEqual([10_000, 10_000, 5_001]);
		expect(pages.flat()).toEqual(items.map((i) => i.json));
		expect(ctx.sent[4].body).toEqual({ pages: 3 });
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			campaign: 'spring',
			state: 'sending',
			alreadyStarted: false,
			handedOver: 25_001,
			leftOut: 0,
			pages: 3,
			counts: { recipients: 25_001 },
		});
		expect(out[0].pairedItem).toEqual({ item: 0 });
	});

	it('run again with the same name hands nothing over and does not start anything twice', async () => {
		const { ctx, result } = run(start('spring'), people(25_001));
		const [out] = await result;
		expect(ctx.sent.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
			'PUT /api/campaigns/spring',
		]);
		expect(out[0].json).toMatchObject({ campaign: 'spring', alreadyStarted: true, handedOver: 0 });
		expect(ctx.hints[0].message).toMatch(/already been started.*nobody is sent twice/);
		expect(worker.campaigns.get('spring')!.status.counts.recipients).toBe(25_001);
	});

	it('a run cut off halfway is completed by the next: pages already stored are kept, none added twice', async () => {
		worker.failNext('/api/campaigns/halfway/pages/2', 400);
		await expect(run(start('halfway'), people(15_000)).result).rejects.toThrow(
			/refused for the test/,
		);
		expect(worker.campaigns.get('halfway')!.status.state).toBe('draft');
		expect([...worker.campaigns.get('halfway')!.pages.keys()]).toEqual([1]);
		const [out] = await run(start('halfway'), people(15_000)).result;
		expect(out[0].json).toMatchObject({ state: 'sending', counts: { recipients: 15_000 } });
	});

	it('waits out a worker that answers 503 and goes on', async () => {
		worker.failNext('/api/campaigns/flaky/pages/1', 503, 2);
		const [out] = await run(start('flaky'), people(3)).result;
		expect(out[0].json).toMatchObject({ state: 'sending', counts: { recipients: 3 } });
	});

	it('names each setting that differs from the stored campaign', async () => {
		const error = await run(
			start('spring', { text: 'Other text {{first_name}}' }),
			people(2),
		).result.catch((e) => e);
		expect(error.message).toMatch(
			/^CloudTel worker: campaign "spring" exists with other settings: text/,
		);
		expect(error.description).toContain(
			'text: stored "Hi {{first_name}}", given "Other text {{first_name}}"',
		);
		expect(error.description).toMatch(/new name/);
	});

	it("masks the Events URL's secret wherever the output echoes it, and names a differing setting once", async () => {
		const events = 'https://n8n.example.com/webhook/abc/cloudtel?secret=s3cr3t-value';
		const [out] = await run(start('masked', { options: { rate: 10, events } }), people(1)).result;
		expect((out[0].json.settings as { events: string }).events).toBe(
			'https://n8n.example.com/webhook/abc/cloudtel?secret=***',
		);
		expect(worker.campaigns.get('masked')!.status.settings.events).toBe(events);
		const [status] = await run({ operation: 'getStatus', campaignName: 'masked' }).result;
		expect(JSON.stringify(status[0].json)).not.toContain('s3cr3t');
		const error = await run(
			start('masked', { options: { rate: 10, events: `${events}-other` } }),
			people(1),
		).result.catch((e) => e);
		expect(error.description).toMatch(
			/^events: stored "https:\/\/n8n\.example\.com\/webhook\/abc\/cloudtel\?secret=\*\*\*", given ".*\?secret=\*\*\*"\n/,
		);
		// Beside the node's own parameters, which n8n keeps with any error.
		const whole = JSON.stringify({
			message: error.message,
			description: error.description,
			context: error.context,
			errorResponse: error.errorResponse,
		});
		expect(whole).not.toContain('s3cr3t');
	});

	it('refuses bad settings in n8n, naming the field, before anything is sent', async () => {
		const { ctx, result } = run(
			start('bad-settings', { propertySid: 'nope', options: { sendWindow: '09:00-20:00' } }),
			people(2),
		);
		const error = await result.catch((e) => e);
		expect(error.message).toBe('Invalid Property SID, Send Window');
		expect(error.description).toMatch(/Send Window: sendWindow needs the time zone/);
		expect(ctx.sent).toEqual([]);
	});

	it('refuses a bad Campaign Name, naming the field', async () => {
		const { ctx, result } = run(start('no spaces allowed'), people(1));
		await expect(result).rejects.toThrow(/Invalid Campaign Name: "no spaces allowed"/);
		expect(ctx.sent).toEqual([]);
	});

	it('stops on an item that cannot be a recipient, naming the item and field, before anything is sent', async () => {
		const items = people(3);
		items[1].json.address = { city: 'Sydney' };
		const { ctx, result } = run(start('nested'), items);
		const error = await result.catch((e) => e);
		expect(error.message).toBe(
			`Item 1 cannot be a recipient: field "address" holds an object; a recipient's fields must be text, numbers, true/false or empty`,
		);
		expect(error.context.itemIndex).toBe(1);
		expect(ctx.sent).toEqual([]);
	});

	it('with an error output, leaves a bad item out on it and hands the rest over', async () => {
		const items = people(3);
		items[2].json.tags = ['a'];
		const [out] = await run(start('left-out'), items, 'continueErrorOutput').result;
		expect(out).toHaveLength(2);
		expect(out[0].json).toMatchObject({ campaign: 'left-out', handedOver: 2, leftOut: 1 });
		expect(out[1].pairedItem).toEqual({ item: 2 });
		expect(out[1].error?.message).toMatch(/Item 2 .*"tags" holds a list/);
		// On the error output as n8n 2.40 shows it: the input's fields and the explanation, not just {error}.
		const shown = asN8nShows(out, items, 'continueErrorOutput');
		expect(shown.main).toHaveLength(1);
		expect(shown.error[0].json).toMatchObject({
			first_name: 'p2',
			tags: ['a'],
			Message: expect.stringMatching(/^Item 2 cannot be a recipient/),
			Description: expect.stringMatching(/Define Below/),
		});
		expect(JSON.parse(worker.campaigns.get('left-out')!.pages.get(1)!)).toEqual([
			items[0].json,
			items[1].json,
		]);
	});

	it('Define Below builds each recipient from the columns', async () => {
		const items = [
			{ json: { contact: { mobile: '+61412000001' }, name: 'Ann' } },
			{ json: { contact: { mobile: '+61412000002' }, name: 'Bob' } },
		];
		const columns = {
			column: [
				{ name: 'phone', value: '' },
				{ name: 'first_name', value: '' },
			],
		};
		const params = start('defined', {
			mapping: 'defineBelow',
			columns: (i: number) => ({
				column: [
					{ ...columns.column[0], value: (items[i].json.contact as { mobile: string }).mobile },
					{ ...columns.column[1], value: items[i].json.name },
				],
			}),
		});
		await run(params, items).result;
		expect(JSON.parse(worker.campaigns.get('defined')!.pages.get(1)!)).toEqual([
			{ phone: '+61412000001', first_name: 'Ann' },
			{ phone: '+61412000002', first_name: 'Bob' },
		]);
	});

	it('with Continue On Fail, a refusal of the whole campaign becomes one error item', async () => {
		const [out] = await run(
			start('spring', { text: 'changed' }),
			people(1),
			'continueRegularOutput',
		).result;
		expect(out).toHaveLength(1);
		expect(out[0].json.error).toMatch(/exists with other settings/);
	});

	// As n8n 2.40 shows the output (asN8nShows): an item still carrying `error` once the node
	// has run is reduced to {error: message}, on the error output too.
	it('with an error output, a name used with other settings arrives there as one item with the 409 and each difference; the main output is empty', async () => {
		const items = people(2);
		const [out] = await run(
			start('spring', { text: 'changed', options: { rate: 20 } }),
			items,
			'continueErrorOutput',
		).result;
		const shown = asN8nShows(out, items, 'continueErrorOutput');
		expect(shown.main).toEqual([]);
		expect(shown.error).toHaveLength(1);
		expect(shown.error[0].json).toMatchObject({
			phone: items[0].json.phone,
			error: 'CloudTel worker: campaign "spring" exists with other settings: text, rate',
			HttpCode: 409,
			ErrorCode: 'conflict',
			Differences: [
				{ setting: 'text', stored: 'Hi {{first_name}}', given: 'changed' },
				{ setting: 'rate', stored: 10, given: 20 },
			],
		});
		expect(shown.error[0].json.Description).toContain(
			'text: stored "Hi {{first_name}}", given "changed"\nrate: stored 10, given 20',
		);
	});

	it('with an error output, a wrong token arrives there as one item naming the 401 and the credential', async () => {
		const items = people(1);
		const [out] = await run(start('never-made'), items, 'continueErrorOutput', {
			url: worker.url,
			apiToken: 'wrong-token-wrong-token',
		}).result;
		const shown = asN8nShows(out, items, 'continueErrorOutput');
		expect(shown.main).toEqual([]);
		expect(shown.error).toHaveLength(1);
		expect(shown.error[0].json).toMatchObject({
			error: 'CloudTel worker: missing or wrong token',
			HttpCode: 401,
			ErrorCode: 'unauthorized',
		});
		expect(shown.error[0].json.Description).toMatch(
			/API Token of the CloudTel Worker API credential/,
		);
		expect(worker.campaigns.has('never-made')).toBe(false);
	});

	it('with Continue On Fail (regular output), the refusal keeps its explanation and codes too', async () => {
		const items = people(1);
		const [out] = await run(
			start('spring', { text: 'changed again' }),
			items,
			'continueRegularOutput',
		).result;
		const shown = asN8nShows(out, items, 'continueRegularOutput');
		expect(shown.main).toHaveLength(1);
		expect(shown.main[0].json).toMatchObject({
			HttpCode: 409,
			ErrorCode: 'conflict',
			Differences: [{ setting: 'text', stored: 'Hi {{first_name}}', given: 'changed again' }],
		});
		expect(shown.main[0].json.Description).toMatch(/text: stored/);
	});
});

describe('CloudTel Campaign: the Text is a template for each recipient', () => {
	it('an Expression reading item fields (n8n evaluates it once, on item 0) is handed over as the template it means, with a hint', async () => {
		const items = people(3);
		// What dragging first_name into the field makes, and what n8n gives for item 0.
		const text = expression(
			'=Hi {{ $json.first_name }}, 20% off at {{ $json["store"] }}',
			(_i, item) => `Hi ${item.json.first_name}, 20% off at undefined`,
		);
		const { ctx, result } = run(start('expr-text', { text }), items);
		await result;
		expect(ctx.sent[0].body).toMatchObject({ text: 'Hi {{first_name}}, 20% off at {{store}}' });
		expect(worker.campaigns.get('expr-text')!.status.settings.text).toBe(
			'Hi {{first_name}}, 20% off at {{store}}',
		);
		expect(ctx.hints.map((h) => h.message)).toContainEqual(
			expect.stringMatching(
				/Text was an Expression.*"Hi \{\{first_name\}\}, 20% off at \{\{store\}\}"/,
			),
		);
	});

	it('an Expression over item fields that cannot be a placeholder is refused before anything is handed over, saying why', async () => {
		const text = expression(
			'=Hi {{ $json.first_name.toUpperCase() }}',
			(_i, item) => `Hi ${String(item.json.first_name).toUpperCase()}`,
		);
		const { ctx, result } = run(start('expr-refused', { text }), people(3));
		const error = await result.catch((e) => e);
		expect(error.message).toMatch(
			/^Text is an Expression that n8n would evaluate once, for the first item/,
		);
		expect(error.description).toContain(
			'"{{ $json.first_name.toUpperCase() }}" cannot be read as one',
		);
		expect(error.description).toMatch(/Set the Text to Fixed/);
		expect(ctx.sent).toEqual([]);
	});

	it("an Expression over no item (an AI tool's $fromAI) is taken as n8n evaluates it", async () => {
		const text = expression("={{ $fromAI('text') }}", () => 'Hello {{first_name}}');
		const { ctx, result } = run(start('expr-ai', { text }), people(2));
		await result;
		expect(ctx.sent[0].body).toMatchObject({ text: 'Hello {{first_name}}' });
		expect(ctx.hints).toEqual([]);
	});
});

describe('CloudTel Campaign: Preview, Get Status, Pause, Resume, Cancel, Get Report', () => {
	it('Preview is a dry run: it stores nothing, shows the first three texts, can be repeated after an edit, and Start then starts afresh', async () => {
		const [out] = await run({ ...start('previewed'), operation: 'preview' }, people(4)).result;
		expect(out[0].json).toMatchObject({ campaign: 'previewed', recipients: 4, problems: [] });
		expect(out[0].json.samples).toEqual([
			expect.objectContaining({ recipient: 1, text: 'Hi p0' }),
			expect.objectContaining({ recipient: 2, text: 'Hi p1' }),
			expect.objectContaining({ recipient: 3, text: 'Hi p2' }),
		]);
		expect(out[0].json).not.toHaveProperty('existing');
		expect(
			[...worker.campaigns.keys()].filter((n) => n === 'previewed' || n.startsWith('preview-')),
		).toEqual([]);
		const [again] = await run(
			{ ...start('previewed', { text: 'Hello {{first_name}}' }), operation: 'preview' },
			people(4),
		).result;
		expect((again[0].json.samples as Array<{ text: string }>)[0].text).toBe('Hello p0');
		const [started] = await run(start('previewed', { text: 'Hello {{first_name}}' }), people(4))
			.result;
		expect(started[0].json).toMatchObject({
			state: 'sending',
			alreadyStarted: false,
			counts: { recipients: 4 },
		});
	});

	it('Preview of a name already taken says what a Start with it would do', async () => {
		const { ctx, result } = run(
			{ ...start('previewed', { text: 'Other {{first_name}}' }), operation: 'preview' },
			people(2),
		);
		const [out] = await result;
		expect(out[0].json).toMatchObject({ campaign: 'previewed', existing: 'sending' });
		expect(ctx.hints[0].message).toMatch(
			/already sending: a Start with this name hands nothing over/,
		);
	});

	it('acts on the campaign each item names, one output item per input item', async () => {
		const items = [{ json: { name: 'spring' } }, { json: { name: 'halfway' } }];
		const name = (i: number) => items[i].json.name;
		const [paused] = await run({ operation: 'pause', campaignName: name }, items).result;
		expect(paused.map((o) => [o.json.campaign, o.json.state, o.pairedItem])).toEqual([
			['spring', 'paused', { item: 0 }],
			['halfway', 'paused', { item: 1 }],
		]);
		const [resumed] = await run({ operation: 'resume', campaignName: 'spring' }).result;
		expect(resumed[0].json.state).toBe('sending');
		const [status] = await run({ operation: 'getStatus', campaignName: 'halfway' }).result;
		expect(status[0].json).toMatchObject({
			campaign: 'halfway',
			state: 'paused',
			counts: { recipients: 15_000 },
			settings: { property: PROPERTY },
		});
		const [report] = await run({ operation: 'getReport', campaignName: 'spring' }).result;
		expect(report[0].json).toMatchObject({ campaign: 'spring', summary: { recipients: 25_001 } });
		const [cancelled] = await run({ operation: 'cancel', campaignName: 'halfway' }).result;
		expect(cancelled[0].json.state).toBe('cancelled');
	});

	it('Delete deletes a draft; one still sending is refused, saying to cancel it first', async () => {
		worker.failNext('/api/campaigns/to-delete/start', 400);
		await run(start('to-delete'), people(2)).result.catch(() => undefined);
		expect(worker.campaigns.get('to-delete')!.status.state).toBe('draft');
		const [out] = await run({ operation: 'deleteCampaign', campaignName: 'to-delete' }).result;
		expect(out[0].json).toEqual({ campaign: 'to-delete', deleted: true, state: 'draft' });
		expect(worker.campaigns.has('to-delete')).toBe(false);
		const error = await run({
			operation: 'deleteCampaign',
			campaignName: 'previewed',
		}).result.catch((e) => e);
		expect(error.message).toMatch(
			/^CloudTel worker: campaign "previewed" is sending: cancel it first/,
		);
	});

	it('Get Status with a fixed name after a node with many items asks once, answers once, and says so', async () => {
		const { ctx, result } = run({ operation: 'getStatus', campaignName: 'spring' }, people(200));
		const [out] = await result;
		expect(ctx.sent).toHaveLength(1);
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ json: { campaign: 'spring' }, pairedItem: { item: 0 } });
		expect(ctx.hints[0].message).toMatch(/asked once for the 200 input items/);
	});

	it('an unknown campaign fails its own item only, with Continue On Fail', async () => {
		const items = [{ json: { name: 'nobody' } }, { json: { name: 'spring' } }];
		const [out] = await run(
			{ operation: 'getStatus', campaignName: (i: number) => items[i].json.name },
			items,
			'continueRegularOutput',
		).result;
		expect(out[0].json.error).toBe('CloudTel worker: no campaign "nobody"');
		expect(out[1].json.campaign).toBe('spring');
	});

	it("says a wrong token is the credential's", async () => {
		const error = await run(
			{ operation: 'getStatus', campaignName: 'spring' },
			undefined,
			undefined,
			{ url: worker.url, apiToken: 'wrong-token-wrong-token' },
		).result.catch((e) => e);
		expect(error.message).toBe('CloudTel worker: missing or wrong token');
		expect(error.description).toMatch(/API Token of the CloudTel Worker API credential/);
	});
});

describe('CloudTel Worker API credential test', () => {
	it('passes when the worker lists its campaigns', async () => {
		expect(await testWorkerCredential({ url: worker.url, apiToken: worker.token })).toEqual({
			status: 'OK',
			message: expect.stringMatching(/worker answered/),
		});
	});

	it('says to add https:// to a Worker URL written without it, in the test and in a run, before any request', async () => {
		const bare = worker.url.replace(/^http:\/\//, '');
		expect((await testWorkerCredential({ url: bare, apiToken: worker.token })).message).toBe(
			`The Worker URL "${bare}" has no http:// or https://: add https:// (or http:// for a worker on this machine or network), e.g. https://${bare}.`,
		);
		const { ctx, result } = run(
			{ operation: 'getStatus', campaignName: 'spring' },
			undefined,
			undefined,
			{ url: bare, apiToken: worker.token },
		);
		await expect(result).rejects.toThrow(
			/^The Worker URL ".*" has no http:\/\/ or https:\/\/: add https:\/\//,
		);
		expect(ctx.sent).toEqual([]);
	});

	it('explains a wrong token, a URL without the API and one where nothing answers', async () => {
		expect(
			(await testWorkerCredential({ url: worker.url, apiToken: 'x'.repeat(20) })).message,
		).toMatch(/refused the API Token \(401\)/);
		expect(
			(await testWorkerCredential({ url: `${worker.url}/elsewhere`, apiToken: worker.token }))
				.message,
		).toMatch(/^No campaign API at this URL \(404\).*server\.apiToken/);
		const closed = await contractWorker();
		await closed.close();
		expect((await testWorkerCredential({ url: closed.url, apiToken: worker.token })).message).toBe(
			`Could not reach the CloudTel worker (ECONNREFUSED): check the Worker URL of the CloudTel Worker API credential (now "${closed.url}"): it must be where the cloudtel worker's HTTP server answers, without /api.`,
		);
	});
});

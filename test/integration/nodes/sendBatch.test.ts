import { describe, expect, it } from 'vitest';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';
import { allSandboxMessages } from '../../support/sandboxMessages';
import { asN8nShows, executeContext, splitErrorOutput, type ExecuteOptions } from './fakeN8n';
import { control, credentialsFor, sandboxForFile } from './sandboxControl';

const node = new CloudTel();
let sb: RunningSandbox;
sandboxForFile((started) => (sb = started));

/** Input items as a Code node would make them: one row per recipient. */
function rows(
	count: number,
	to: (i: number) => string = (i) => `+6140${String(i).padStart(7, '0')}`,
): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => ({ json: { to: to(i), ref: `row-${i}` } }));
}

function sendBatch(
	items: INodeExecutionData[],
	params: ExecuteOptions['params'] = {},
	extra: Partial<ExecuteOptions> = {},
	on = sb,
) {
	const ctx = executeContext({
		credentials: credentialsFor(on),
		items,
		params: {
			resource: 'message',
			operation: 'sendBatch',
			propertySid: on.demo.PropertySid,
			from: 'Bistro',
			to: (_i: number, item: INodeExecutionData) => item.json.to,
			text: (_i: number, item: INodeExecutionData) => `Hello ${item.json.ref}`,
			...params,
		},
		...extra,
	});
	return { ctx, result: node.execute.call(ctx) };
}

// Expressions inside a collection: resolve them per item, as n8n does.
function resolveOptions(items: INodeExecutionData[]) {
	return (i: number) => ({ ExternalId: items[i].json.ref });
}

describe('Message: Send Batch', () => {
	it('sends 2,500 items in 3 requests and answers each item in input order', async () => {
		const items = rows(2500);
		const { ctx, result } = sendBatch(items, { options: resolveOptions(items) });
		const out = (await result)[0];
		expect(ctx.sent.map((r) => (r.body as { Messages: unknown[] }).Messages.length)).toEqual([
			1000, 1000, 500,
		]);
		expect(out).toHaveLength(2500);
		out.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toMatchObject({
				To: items[i].json.to,
				ExternalId: `row-${i}`,
				Status: 'Processing',
				MessageSid: expect.any(String),
			});
		});
		const Messages = await allSandboxMessages<IDataObject>(sb.url, {
			PropertySid: sb.demo.PropertySid,
		});
		expect(Messages.filter((m) => String(m.ExternalId).startsWith('row-'))).toHaveLength(2500);
	});

	it('honours a smaller Batch Size', async () => {
		const items = rows(5);
		const { ctx, result } = sendBatch(items, { batchSize: 2, options: resolveOptions(items) });
		expect((await result)[0]).toHaveLength(5);
		expect(ctx.sent.map((r) => (r.body as { Messages: unknown[] }).Messages.length)).toEqual([
			2, 2, 1,
		]);
	});

	it('sends bad items to the error output and the rest in one request', async () => {
		const items = rows(10, (i) =>
			i === 3 || i === 7 ? '12345' : `+6141${String(i).padStart(7, '0')}`,
		);
		const { ctx, result } = sendBatch(
			items,
			{ options: resolveOptions(items) },
			{ onError: 'continueErrorOutput' },
		);
		const out = (await result)[0];
		expect(ctx.sent).toHaveLength(1);
		expect((ctx.sent[0].body as { Messages: unknown[] }).Messages).toHaveLength(8);
		const { success, error } = splitErrorOutput(out);
		expect(success.map((i) => (i.pairedItem as { item: number }).item)).toEqual([
			0, 1, 2, 4, 5, 6, 8, 9,
		]);
		expect(error.map((i) => i.pairedItem)).toEqual([{ item: 3 }, { item: 7 }]);
		expect(error[0].json).toMatchObject({
			Sent: false,
			ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
			FieldNames: ['To'],
		});
		expect(error[0].error?.context.itemIndex).toBe(3);
	});

	it('gives each failed item its code, explanation, field, value and input fields, as n8n 2.x shows them on the error output', async () => {
		const items: INodeExecutionData[] = [
			{ json: { customerId: 'C-1', to: '+61412000101', ref: 'row-0' } },
			{ json: { customerId: 'C-2', to: '0412 345 678', ref: 'row-1' } },
			{ json: { customerId: 'C-3', to: '+61412000103', ref: 'row-2' } },
		];
		const { result } = sendBatch(
			items,
			{ options: resolveOptions(items) },
			{ onError: 'continueErrorOutput' },
		);
		const shown = asN8nShows((await result)[0], items, 'continueErrorOutput');
		expect(shown.wouldRetry).toBe(false);
		expect(
			shown.main.map((i) => [i.json.customerId, i.json.ref, typeof i.json.MessageSid]),
		).toEqual([
			['C-1', 'row-0', 'string'],
			['C-3', 'row-2', 'string'],
		]);
		expect(shown.error).toHaveLength(1);
		expect(shown.error[0].pairedItem).toEqual({ item: 1 });
		expect(shown.error[0].json).toEqual({
			customerId: 'C-2',
			to: '0412 345 678',
			ref: 'row-1',
			Sent: false,
			ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
			Message: 'Invalid To: INVALID_PHONENUMBER_FORMAT',
			Description:
				'To must be an E.164 number: + then 8 to 15 digits, the first not 0 (got "0412 345 678"). (To, INVALID_PHONENUMBER_FORMAT)',
			FieldNames: ['To'],
			Errors: [
				{
					FieldName: 'To',
					ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
					Message: expect.stringMatching(/^To must be an E\.164 number/),
					Value: '0412 345 678',
				},
			],
		});
	});

	it('leaves the input fields out with Include Input Fields off', async () => {
		const items: INodeExecutionData[] = [
			{ json: { customerId: 'C-1', to: '+61412000101', ref: 'row-0' } },
			{ json: { customerId: 'C-2', to: 'nope', ref: 'row-1' } },
		];
		const out = (
			await sendBatch(items, { includeInputFields: false }, { onError: 'continueRegularOutput' })
				.result
		)[0];
		expect(out[0].json.customerId).toBeUndefined();
		expect(out[0].json.MessageSid).toEqual(expect.any(String));
		expect(out[1].json).toMatchObject({ Sent: false, ErrorCode: 'INVALID_PHONENUMBER_FORMAT' });
		expect(out[1].json.customerId).toBeUndefined();
	});

	it("counts only its own failures in the hint, not an input's own `Sent: false`", async () => {
		const items: INodeExecutionData[] = [
			{ json: { to: '+61412000101', ref: 'row-0', Sent: false } },
		];
		const { ctx, result } = sendBatch(items);
		expect((await result)[0][0].json.MessageSid).toEqual(expect.any(String));
		expect(ctx.hints).toEqual([]);
	});

	it("never puts an input's own `error` on the first item, where Retry On Fail would read it", async () => {
		const items: INodeExecutionData[] = [
			{ json: { to: '+61412000101', ref: 'row-0', error: 'from an earlier node' } },
		];
		const out = (await sendBatch(items).result)[0];
		expect(asN8nShows(out, items).wouldRetry).toBe(false);
		expect(out[0].json).toMatchObject({ ref: 'row-0', MessageSid: expect.any(String) });
	});

	it("maps each item's own fields by their API names when Message Fields is Map From Input", async () => {
		const at = Math.floor(Date.now() / 1000) + 3600;
		const items: INodeExecutionData[] = [
			{ json: { To: '+61430000001', Text: 'One', ExternalId: 'auto-0', Extra: 'ignored' } },
			{
				json: {
					to: '+61430000002',
					TEXT: 'Two',
					externalid: 'auto-1',
					schedule: at,
					from: 'Bistro',
				},
			},
			{ json: { To: '+61430000003', ExternalId: 'auto-2' } },
			{
				json: {
					To: '+61430000004',
					Text: 'Four',
					ExternalId: 'auto-3',
					DeliveryReceiptWebhookUri: 'https://hooks.example.com/own',
				},
			},
		];
		const { ctx, result } = sendBatch(
			items,
			{
				mapping: 'autoMap',
				from: 'Ignored',
				to: 'ignored',
				text: 'ignored',
				options: { DeliveryReceiptWebhookUri: 'https://hooks.example.com/default' },
			},
			{ onError: 'continueErrorOutput' },
		);
		const out = (await result)[0];
		expect(ctx.sent).toHaveLength(1);
		expect((ctx.sent[0].body as { Messages: unknown[] }).Messages).toEqual([
			{
				To: '+61430000001',
				Text: 'One',
				ExternalId: 'auto-0',
				DeliveryReceiptWebhookUri: 'https://hooks.example.com/default',
			},
			{
				To: '+61430000002',
				Text: 'Two',
				ExternalId: 'auto-1',
				Schedule: at,
				From: 'Bistro',
				DeliveryReceiptWebhookUri: 'https://hooks.example.com/default',
			},
			{
				To: '+61430000004',
				Text: 'Four',
				ExternalId: 'auto-3',
				DeliveryReceiptWebhookUri: 'https://hooks.example.com/own',
			},
		]);
		const { success, error } = splitErrorOutput(out);
		expect(success.map((i) => i.json.ExternalId)).toEqual(['auto-0', 'auto-1', 'auto-3']);
		expect(error).toHaveLength(1);
		expect(error[0]).toMatchObject({
			pairedItem: { item: 2 },
			json: { ErrorCode: 'FIELD_REQUIRED', FieldNames: ['Text'] },
		});
		const stored = await allSandboxMessages<IDataObject>(sb.url, {
			PropertySid: sb.demo.PropertySid,
		});
		expect(stored.find((m) => m.ExternalId === 'auto-1')).toMatchObject({
			Status: 'Scheduled',
			From: 'Bistro',
			Text: 'Two',
		});
	});

	it('Map From Input finds the number in Phone or Mobile (any case) as a campaign does, and says what an item without one holds', async () => {
		const items: INodeExecutionData[] = [
			{ json: { phone: '+61430000011', Text: 'One', ExternalId: 'pm-0' } },
			{ json: { MOBILE: '+61430000012', Text: 'Two', ExternalId: 'pm-1' } },
			{ json: { cell: '+61430000013', Text: 'Three', ExternalId: 'pm-2' } },
		];
		const { ctx, result } = sendBatch(
			items,
			{ mapping: 'autoMap', from: 'Bistro' },
			{ onError: 'continueErrorOutput' },
		);
		const { success, error } = splitErrorOutput((await result)[0]);
		expect(
			(ctx.sent[0].body as { Messages: Array<{ To: string }> }).Messages.map((m) => m.To),
		).toEqual(['+61430000011', '+61430000012']);
		expect(success.map((i) => i.json.ExternalId)).toEqual(['pm-0', 'pm-1']);
		expect(error[0].json).toMatchObject({ FieldNames: ['To'] });
		expect(String(error[0].json.Description)).toMatch(
			/no field named To, Phone or Mobile \(any case\)\. Its fields: cell, Text, ExternalId\. Rename/,
		);
	});

	it('Default Country reads numbers written without their country code; an unknown country is refused naming the field', async () => {
		const items: INodeExecutionData[] = [
			{ json: { phone: '0412 345 678', Text: 'One', ExternalId: 'dc-0' } },
			{ json: { phone: '+44 7700 900123', Text: 'Two', ExternalId: 'dc-1' } },
		];
		const { ctx, result } = sendBatch(items, {
			mapping: 'autoMap',
			options: { defaultCountry: 'au' },
		});
		const out = (await result)[0];
		expect(
			(ctx.sent[0].body as { Messages: Array<{ To: string }> }).Messages.map((m) => m.To),
		).toEqual(['+61412345678', '+447700900123']);
		expect(out.map((i) => i.json.To)).toEqual(['+61412345678', '+447700900123']);
		const refused = await sendBatch(items.slice(0, 1), {
			mapping: 'autoMap',
			options: { defaultCountry: 'Australia' },
		}).result.catch((e) => e);
		expect(refused.message).toMatch(/^Invalid Default Country\b/);
		expect(refused.description).toMatch(
			/Default Country must be a two-letter country code such as AU or GB \(got "Australia"\)/,
		);
	});

	it('without an error output, the node fails once naming every bad item by its place counted from 1 and a field that tells it apart', async () => {
		const items = rows(6, (i) => (i % 2 === 1 ? `bad-${i}` : `+6142${String(i).padStart(7, '0')}`));
		const { ctx, result } = sendBatch(items, { options: resolveOptions(items) });
		const error = await result.catch((e) => e);
		expect(error.message).toBe('3 of 6 items cannot be sent: items 2, 4, 6');
		const lines = String(error.description).split('\n');
		expect(lines.slice(0, 3)).toEqual([
			expect.stringMatching(/^Item 2 \(to "bad-1"\): Invalid To: INVALID_PHONENUMBER_FORMAT/),
			expect.stringMatching(/^Item 4 \(to "bad-3"\): Invalid To/),
			expect.stringMatching(/^Item 6 \(to "bad-5"\): Invalid To/),
		]);
		expect(lines[3]).toMatch(/^Nothing was sent\./);
		expect(error.context.itemIndex).toBe(1);
		expect(ctx.sent).toHaveLength(0);
	});

	it('without Continue On Fail, a bad item stops the node before anything is sent', async () => {
		const items = rows(4, (i) => (i === 2 ? 'oops' : `+6142${String(i).padStart(7, '0')}`));
		const { ctx, result } = sendBatch(items, { options: resolveOptions(items) });
		await expect(result).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: 'Invalid To: INVALID_PHONENUMBER_FORMAT',
			context: { itemIndex: 2 },
		});
		expect(ctx.sent).toHaveLength(0);
	});

	it("makes a provider's per-message failure that item's error, never the node's", async () => {
		// The sandbox clock runs two hours ahead: a schedule 30 minutes ago passes the
		// node's check but is over an hour old for the provider, which refuses that element.
		const ahead = await startSandbox({ port: 0 });
		try {
			await control(ahead, 'POST', '/clock', { AdvanceSeconds: 7200 });
			const items = rows(3);
			const schedule = new Date(Date.now() - 30 * 60_000).toISOString();
			const { ctx, result } = sendBatch(
				items,
				{ options: (i: number) => (i === 1 ? { Schedule: schedule } : {}) },
				{},
				ahead,
			);
			const out = (await result)[0];
			// No error output: the refused message sits in the main output, so n8n shows a hint.
			expect(ctx.hints).toEqual([
				{
					message: expect.stringMatching(/^1 of 3 messages were not sent/),
					location: 'outputPane',
				},
			]);
			expect(out).toHaveLength(3);
			expect(out[0].json.MessageSid).toEqual(expect.any(String));
			expect(out[2].json.MessageSid).toEqual(expect.any(String));
			expect(out[1]).toMatchObject({
				pairedItem: { item: 1 },
				json: {
					ref: 'row-1',
					Sent: false,
					ErrorCode: 'SCHEDULE_IN_PAST',
					FieldNames: ['Schedule'],
					Errors: [
						{ FieldName: 'Schedule', ErrorCode: 'SCHEDULE_IN_PAST', Value: expect.any(Number) },
					],
				},
			});
			// Without an error output the item carries no `error`: n8n 2.x would replace its json with {error}.
			expect(out[1].error).toBeUndefined();
			expect(asN8nShows(out, items).main[1].json).toMatchObject({
				Sent: false,
				ErrorCode: 'SCHEDULE_IN_PAST',
			});
		} finally {
			await ahead.close();
		}
	});

	it('raises no hint when refused messages take the error output', async () => {
		const ahead = await startSandbox({ port: 0 });
		try {
			await control(ahead, 'POST', '/clock', { AdvanceSeconds: 7200 });
			const schedule = new Date(Date.now() - 30 * 60_000).toISOString();
			const { ctx, result } = sendBatch(
				rows(2),
				{ options: (i: number) => (i === 1 ? { Schedule: schedule } : {}) },
				{ onError: 'continueErrorOutput' },
				ahead,
			);
			expect(splitErrorOutput((await result)[0]).error).toHaveLength(1);
			expect(ctx.hints).toEqual([]);
		} finally {
			await ahead.close();
		}
	});

	it('groups items by Property and keeps input order', async () => {
		const { PropertySid } = await control<{ PropertySid: string }>(
			sb,
			'POST',
			`/accounts/${sb.demo.AccountSid}/properties`,
			{},
		);
		const items = rows(4);
		const { ctx, result } = sendBatch(items, {
			propertySid: (i: number) => (i % 2 ? PropertySid : sb.demo.PropertySid),
			options: resolveOptions(items),
		});
		const out = (await result)[0];
		expect(ctx.sent.map((r) => r.url.includes(PropertySid))).toEqual([false, true]);
		expect(out.map((i) => i.json.PropertySid)).toEqual([
			sb.demo.PropertySid,
			PropertySid,
			sb.demo.PropertySid,
			PropertySid,
		]);
	});

	it('fails the node on a whole-request failure before anything was accepted, or fails each item with Continue On Fail', async () => {
		const { PropertySid } = await control<{ PropertySid: string }>(
			sb,
			'POST',
			`/accounts/${sb.demo.AccountSid}/properties`,
			{ Active: false },
		);
		const items = rows(3);
		await expect(
			sendBatch(items, { propertySid: PropertySid, options: resolveOptions(items) }).result,
		).rejects.toMatchObject({
			name: 'NodeApiError',
			context: { ErrorCode: 'PROPERTY_INACTIVE' },
		});
		const out = (
			await sendBatch(
				items,
				{ propertySid: PropertySid, options: resolveOptions(items) },
				{ onError: 'continueRegularOutput' },
			).result
		)[0];
		expect(out.map((i) => [i.pairedItem, i.json.ErrorCode, i.json.ref])).toEqual([
			[{ item: 0 }, 'PROPERTY_INACTIVE', 'row-0'],
			[{ item: 1 }, 'PROPERTY_INACTIVE', 'row-1'],
			[{ item: 2 }, 'PROPERTY_INACTIVE', 'row-2'],
		]);
		// With an error output, each item carries its own copy of the error, with its own index.
		const routed = (
			await sendBatch(
				items,
				{ propertySid: PropertySid, options: resolveOptions(items) },
				{ onError: 'continueErrorOutput' },
			).result
		)[0];
		expect(routed.map((i) => i.error?.context.itemIndex)).toEqual([0, 1, 2]);
	});

	it('waits out 429 as Retry-After says, then sends', async () => {
		const limited = await startSandbox({ port: 0, rateLimit: 5 });
		try {
			// A batch larger than the account's second (5 messages) passes on a full bucket and
			// leaves it 2 s in debt: the node's first request, made at once, is refused.
			const drain = rows(10, (i) => `+6141${String(i).padStart(7, '0')}`);
			await sendBatch(drain, { batchSize: 10, options: resolveOptions(drain) }, {}, limited).result;
			const items = rows(10);
			const { ctx, result } = sendBatch(
				items,
				{ batchSize: 5, options: resolveOptions(items) },
				{},
				limited,
			);
			const out = (await result)[0];
			expect(ctx.sent[0].status).toBe(429);
			ctx.sent.forEach((r, i) => {
				if (r.status !== 429) return expect(r.status).toBe(200);
				// Each refusal said how long to wait, and the next request waited that long
				// (timers may fire a millisecond early).
				expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
				expect(ctx.sent[i + 1].startedAt - r.answeredAt).toBeGreaterThanOrEqual(
					Number(r.retryAfter) * 1000 - 2,
				);
			});
			// Both batches of 5 went, each once.
			expect(
				ctx.sent
					.filter((r) => r.status === 200)
					.map((r) => (r.body as { Messages: unknown[] }).Messages.length),
			).toEqual([5, 5]);
			expect(out.every((i) => typeof i.json.MessageSid === 'string')).toBe(true);
			const sent = await allSandboxMessages<IDataObject>(limited.url, {
				PropertySid: limited.demo.PropertySid,
			});
			expect(
				sent
					.filter((m) => String(m.To).startsWith('+6140'))
					.map((m) => m.To)
					.sort(),
			).toEqual(items.map((i) => i.json.to).sort());
		} finally {
			await limited.close();
		}
	});
});

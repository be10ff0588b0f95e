import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeBackends } from '../../support/storeBackends';
import { ApiUnderTest } from './apiHarness';

const cleanup = cleanupAfterEach();

const phone = (i: number) => `+614915760${String(i).padStart(2, '0')}`;

/** Bad pages, and the refusal api/workerApi's check words for each: the field, and what it must be. */
const REFUSED: { body: unknown; field: string; message: string }[] = [
	{
		body: [{ phone: phone(1) }],
		field: 'body',
		message: 'body must be a JSON object {"recipients": [...]}',
	},
	{
		body: { recipients: 'everyone' },
		field: 'recipients',
		message: 'recipients must be an array of objects',
	},
	{
		body: { recipients: [] },
		field: 'recipients',
		message: 'recipients must hold at least one recipient',
	},
	{
		body: { recipients: [{ phone: phone(1) }], colour: 'red' },
		field: 'colour',
		message: 'colour is not a field of a page (only "recipients")',
	},
	{
		body: { recipients: [{ phone: phone(1) }, { phone: { nested: true } }] },
		field: 'recipients[1].phone',
		message: 'recipients[1].phone must be a string, a number, true, false or null (got an object)',
	},
	{
		body: { recipients: [{ phone: phone(1) }, { phone: phone(2), tags: ['a'] }] },
		field: 'recipients[1].tags',
		message: 'recipients[1].tags must be a string, a number, true, false or null (got an array)',
	},
	{
		body: { recipients: [{ phone: phone(1) }, null] },
		field: 'recipients[1]',
		message: 'recipients[1] must be an object of column: value',
	},
	{
		body: { recipients: [{ phone: phone(1) }, [phone(2)]] },
		field: 'recipients[1]',
		message: 'recipients[1] must be an object of column: value',
	},
	{
		body: { recipients: Array.from({ length: 10_001 }, (_, i) => ({ phone: phone(i % 100) })) },
		field: 'recipients',
		message: 'recipients holds 10001 recipients; a page holds at most 10,000',
	},
	// Past shape: rules of api/workerApi that the schema leaves to it.
	{
		body: { recipients: [{ phone: phone(1) }, {}] },
		field: 'recipients[1]',
		message: 'recipients[1] has no fields',
	},
	{
		body: { recipients: [{ phone: phone(1), ' ': 'x' }] },
		field: 'recipients[0]. ',
		message: 'recipients[0] has a column name that is blank or longer than 200 characters',
	},
	{
		body: { recipients: [{ phone: phone(1), note: 'x'.repeat(100_001) }] },
		field: 'recipients[0].note',
		message: 'recipients[0].note is longer than 100,000 characters',
	},
];

/**
 * A page's body is checked by the route's zod schema, as every body of the API is, and
 * refused in the words of api/workerApi's check (the words the n8n node gives): the
 * recipient and field at fault, and what it must be. A good page is stored as it was sent.
 */
describe.each(storeBackends())('a page of recipients over HTTP ($name)', (backend) => {
	/** The API, with the campaign "pages" the tests put their pages to. */
	async function api(): Promise<ApiUnderTest> {
		const a = await ApiUnderTest.startWithSandbox(backend, cleanup);
		expect(
			(
				await a.call('PUT', '/api/campaigns/pages', {
					property: a.sandbox.demo.PropertySid,
					text: 'Hi',
				})
			).status,
		).toBe(201);
		return a;
	}

	it('refuses a bad page 400 invalid, naming the field and what it must be', async () => {
		const a = await api();
		for (const { body, field, message } of REFUSED) {
			const answer = await a.call('PUT', '/api/campaigns/pages/pages/1', body);
			expect(answer.status, field).toBe(400);
			expect(answer.body.error, field).toMatchObject({ code: 'invalid', field, message });
			expect(answer.body.error.problems[0], field).toEqual({ field, message });
		}
		// Every problem of a page is named, each in its own words.
		const two = await a.call('PUT', '/api/campaigns/pages/pages/1', {
			recipients: [{ phone: phone(1) }, { phone: false, x: { y: 1 } }, 7],
		});
		expect(two.body.error.problems).toEqual([
			{
				field: 'recipients[1].x',
				message: 'recipients[1].x must be a string, a number, true, false or null (got an object)',
			},
			{ field: 'recipients[2]', message: 'recipients[2] must be an object of column: value' },
		]);
		// Nothing refused was stored.
		expect((await a.call('GET', '/api/campaigns/pages')).body.campaign.counts.recipients).toBe(0);
	});

	it('takes every value type a cell can be, and keeps every column as sent', async () => {
		const a = await api();
		// Raw JSON, as sent. (A key "__proto__" or "constructor" is refused: apiPrototypeKeys.test.ts.)
		const page = `{"recipients": [{"phone": "${phone(1)}", "n": 3, "vip": true, "note": null, "proto": "x"}, {"phone": "${phone(2)}", "n": 2.5, "vip": false, "note": ""}]}`;
		const json = { 'content-type': 'application/json' };
		const stored = await a.call('PUT', '/api/campaigns/pages/pages/1', page, json);
		expect(stored).toMatchObject({
			status: 200,
			body: { page: 1, recipients: 2, pages: 1, totalRecipients: 2 },
		});
		expect((await a.api.store.pageColumns('pages')).flat().sort()).toEqual([
			'n',
			'note',
			'phone',
			'proto',
			'vip',
		]);
		// The same page again is the same page.
		expect((await a.call('PUT', '/api/campaigns/pages/pages/1', page, json)).body.unchanged).toBe(
			true,
		);
	});

	it('describes the page it takes in the OpenAPI document', async () => {
		const a = await api();
		const doc = (await a.call('GET', '/api/openapi.json')).body;
		const schema =
			doc.paths['/api/campaigns/{name}/pages/{page}'].put.requestBody.content['application/json']
				.schema;
		expect(schema).toMatchObject({
			type: 'object',
			required: ['recipients'],
			additionalProperties: false,
		});
		expect(schema.properties.recipients).toMatchObject({
			type: 'array',
			minItems: 1,
			maxItems: 10_000,
		});
		expect(schema.properties.recipients.items).toMatchObject({
			type: 'object',
			additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
		});
		// The one field that is no column: where and when the number consented.
		expect(schema.properties.recipients.items.properties.consent).toMatchObject({
			type: ['object', 'null'],
			required: ['source'],
			additionalProperties: false,
		});
	});
});

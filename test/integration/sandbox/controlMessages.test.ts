import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
const TOTAL = 2_345;

beforeAll(async () => {
	sb = await SandboxClient.start({ receiptDelayMs: 600_000 });
	for (let i = 0; i < TOTAL; i += 1000) {
		const Messages = Array.from({ length: Math.min(1000, TOTAL - i) }, (_, j) => ({
			To: '+61412345678',
			Text: `m${i + j}`,
			ExternalId: `p:${i + j}`,
		}));
		expect(
			(await sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/BatchMessages`, { Messages }))
				.status,
		).toBe(200);
	}
});
afterAll(() => sb.close());

const list = (query: string) =>
	sb.call('GET', `/_sandbox/messages?${query}`, undefined, { auth: null });

describe('GET /_sandbox/messages, paged as the contract pages lists', () => {
	it('answers 1000 by default, oldest first, with TotalCount and a NextPageToken to follow', async () => {
		const first = await list(`AccountSid=${sb.demo.AccountSid}`);
		expect(first.status).toBe(200);
		expect(first.body.Messages).toHaveLength(1000);
		expect(first.body.TotalCount).toBe(TOTAL);
		expect(first.body.Messages[0].ExternalId).toBe('p:0');
		expect(first.body.NextPageToken).not.toBe('');

		const seen: string[] = first.body.Messages.map((m: { ExternalId: string }) => m.ExternalId);
		let token = first.body.NextPageToken as string;
		while (token) {
			const page = await list(
				`AccountSid=${sb.demo.AccountSid}&PageToken=${encodeURIComponent(token)}`,
			);
			seen.push(...page.body.Messages.map((m: { ExternalId: string }) => m.ExternalId));
			token = page.body.NextPageToken;
		}
		expect(seen).toEqual(Array.from({ length: TOTAL }, (_, i) => `p:${i}`));
	});

	it('takes Results_Count and Results_Skip; a filter that matches nothing is an empty last page', async () => {
		const page = await list(`PropertySid=${sb.demo.PropertySid}&Results_Count=7&Results_Skip=2340`);
		expect(page.body.Messages.map((m: { ExternalId: string }) => m.ExternalId)).toEqual([
			'p:2340',
			'p:2341',
			'p:2342',
			'p:2343',
			'p:2344',
		]);
		expect(page.body.NextPageToken).toBe('');
		const none = await list('AccountSid=00000000-0000-4000-8000-000000000000');
		expect(none.body).toEqual({ Messages: [], TotalCount: 0, NextPageToken: '' });
	});

	it('refuses bad paging with a ResponseStatus naming the parameter', async () => {
		for (const [query, field, code] of [
			['Results_Count=0', 'Results_Count', 'OUT_OF_RANGE'],
			['Results_Count=1001', 'Results_Count', 'OUT_OF_RANGE'],
			['Results_Skip=-1', 'Results_Skip', 'OUT_OF_RANGE'],
			['PageToken=nope', 'PageToken', 'INVALID_PAGE_TOKEN'],
		]) {
			const r = await list(query);
			expect(r.status, query).toBe(400);
			expect(r.body.ResponseStatus.Errors, query).toEqual([
				expect.objectContaining({ FieldName: field, ErrorCode: code }),
			]);
		}
	});

	it('the test helper reads every page', async () => {
		expect(await sb.messages()).toHaveLength(TOTAL);
	});

	it('tells when each message was accepted, in milliseconds, which the /v2 Message does not carry', async () => {
		const before = Date.now();
		const sent = await sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/Messages`, {
			To: '+61412345679',
			Text: 'timed',
			ExternalId: 'timed',
		});
		const after = Date.now();
		expect(sent.body.Message).not.toHaveProperty('AcceptedAt');
		const page = await list(`PropertySid=${sb.demo.PropertySid}&Results_Skip=${TOTAL}`);
		const [timed] = page.body.Messages;
		expect(timed.ExternalId).toBe('timed');
		expect(timed.AcceptedAt).toBeGreaterThanOrEqual(before);
		expect(timed.AcceptedAt).toBeLessThanOrEqual(after);
	});
});

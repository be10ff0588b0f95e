import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { eventually, SandboxClient } from '../../support/sandboxClient';

let sb: SandboxClient;
let catcher: CallbackCatcher;
beforeAll(async () => {
	sb = await SandboxClient.start();
	catcher = await CallbackCatcher.start();
});
afterAll(async () => {
	await sb.close();
	await catcher.close();
});

const send = (body: Record<string, unknown>) =>
	sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/Messages`, {
		Text: 'Reply to me',
		...body,
	});
const reply = (body: unknown) => sb.call('POST', '/_sandbox/replies', body, { auth: null });

describe('leased sender IDs', () => {
	it('gives a recipient up to five different numbers; a sixth replaces the oldest', async () => {
		const to = '+61411000001';
		const froms: string[] = [];
		for (let i = 0; i < 6; i++)
			froms.push((await send({ To: to, ExternalId: `l${i}` })).body.Message.From);
		expect(new Set(froms.slice(0, 5)).size).toBe(5);
		expect(froms[5]).toBe(froms[0]);
		const leases = (
			await sb.call('GET', '/_sandbox/leases', undefined, { auth: null })
		).body.Leases.filter((l: any) => l.Recipient === to);
		expect(leases).toHaveLength(5);
		// The first number now belongs to the sixth message: a reply to it carries l5's ExternalId.
		const r = await reply({ From: to, To: froms[0], Text: 'hi' });
		expect(r.status).toBe(200);
		const inbound = (await sb.messages()).find((m) => m.MessageSid === r.body.MessageSid);
		expect(inbound).toMatchObject({
			Direction: 'Inbound',
			Status: 'Received',
			ExternalId: 'l5',
			From: to,
			To: froms[0],
		});
	});

	it('lets two recipients share a number', async () => {
		const a = (await send({ To: '+61411000002' })).body.Message.From;
		const b = (await send({ To: '+61411000003' })).body.Message.From;
		expect(a).toBe(b);
	});

	it('expires leases after 30 days on the sandbox clock', async () => {
		const to = '+61411000004';
		const from = (await send({ To: to })).body.Message.From;
		await sb.advance(30 * 86400 - 10);
		expect((await reply({ From: to, To: from, Text: 'still here' })).status).toBe(200);
		await sb.advance(10);
		const late = await reply({ From: to, To: from, Text: 'too late' });
		expect(late.status).toBe(404);
		expect(late.body.ResponseStatus.ErrorCode).toBe('NOT_FOUND');
	});

	it('answers 404 to a reply from someone the number was not lent to', async () => {
		const from = (await send({ To: '+61411000005' })).body.Message.From;
		expect((await reply({ From: '+61411999999', To: from, Text: 'who?' })).status).toBe(404);
	});

	it('refuses malformed replies', async () => {
		const r = await reply({ From: 'x', Text: '' });
		expect(r.status).toBe(400);
		expect(r.body.ResponseStatus.Errors.map((e: any) => e.FieldName).sort()).toEqual([
			'From',
			'Text',
			'To',
		]);
	});
});

describe('reply handling as the lease asked', () => {
	it('calls the reply webhook (POST) with the original ExternalId', async () => {
		const to = '+61411000010';
		const orig = (
			await send({ To: to, ExternalId: 'camp:9', WebhookUri: `${catcher.url}/replies` })
		).body.Message;
		const r = await reply({ From: to, To: orig.From, Text: 'Yes please' });
		const hit = await eventually(
			() =>
				catcher.requests.find(
					(q) => q.path === '/replies' && q.body.MessageSid === r.body.MessageSid,
				),
			3000,
			'reply',
		);
		expect(hit.body).toMatchObject({
			OriginalMessageSid: orig.MessageSid,
			AccountSid: sb.demo.AccountSid,
			PropertySid: sb.demo.PropertySid,
			From: to,
			To: orig.From,
			Text: 'Yes please',
			ExternalId: 'camp:9',
		});
	});

	it('calls the reply webhook with GET when asked', async () => {
		const to = '+61411000011';
		const orig = (
			await send({ To: to, WebhookUri: `${catcher.url}/replies-get`, WebhookMethod: 'GET' })
		).body.Message;
		await reply({ From: to, To: orig.From, Text: 'STOP' });
		const hit = await eventually(
			() => catcher.requests.find((q) => q.path === '/replies-get'),
			3000,
			'reply',
		);
		// The worker checks both: AccountSid against its account, OriginalMessageSid before an opt-in.
		expect(hit.query).toMatchObject({
			Text: 'STOP',
			From: to,
			OriginalMessageSid: orig.MessageSid,
			AccountSid: sb.demo.AccountSid,
		});
	});

	it('forwards by SMS, from the replier by default or from ForwardFromSms', async () => {
		const a = '+61411000012';
		const b = '+61411000013';
		const o1 = (await send({ To: a, ForwardToSms: '+61499000001' })).body.Message;
		const o2 = (await send({ To: b, ForwardToSms: '+61499000001', ForwardFromSms: 'ACME' })).body
			.Message;
		await reply({ From: a, To: o1.From, Text: 'one' });
		await reply({ From: b, To: o2.From, Text: 'two' });
		const sms = (await sb.outbox()).Sms.filter((s) => s.To === '+61499000001');
		expect(sms.map((s) => [s.From, s.Text, s.OriginalMessageSid])).toEqual([
			[a, 'one', o1.MessageSid],
			[`ACME`, 'two', o2.MessageSid],
		]);
	});

	it('forwards by e-mail, from a no-reply address by default', async () => {
		const a = '+61411000014';
		const o = (await send({ To: a, ForwardToEmail: 'team@example.com' })).body.Message;
		const o2 = (
			await send({ To: a, ForwardToEmail: 'team@example.com', ForwardFromEmail: 'sms@example.com' })
		).body.Message;
		await reply({ From: a, To: o.From, Text: 'by mail' });
		await reply({ From: a, To: o2.From, Text: 'by mail 2' });
		const mails = (await sb.outbox()).Emails.filter((e) => e.To === 'team@example.com');
		expect(mails).toHaveLength(2);
		expect(mails[0].From).toMatch(/^no-reply@/);
		expect(mails[0].Text).toContain('by mail');
		expect(mails[1].From).toBe('sms@example.com');
	});
});

describe('a burst of replies', () => {
	const originals = async (count: number, first: number, path: string) => {
		const Messages = Array.from({ length: count }, (_, i) => ({
			To: `+614120${String(first + i).padStart(5, '0')}`,
			Text: 'Reply YES',
			WebhookUri: `${catcher.url}${path}`,
		}));
		const r = await sb.call('POST', `/v2/Properties/${sb.demo.PropertySid}/BatchMessages`, {
			Messages,
		});
		expect(r.status).toBe(200);
		return (r.body as { To: string; From: string }[]).map((m) => ({
			From: m.To,
			To: m.From,
			Text: `YES from ${m.To}`,
		}));
	};

	it('takes many replies in one request and calls each webhook back, over a few kept-alive connections', async () => {
		const replies = await originals(300, 0, '/burst');
		const r = await reply({ Replies: replies });
		expect(r.status).toBe(200);
		expect(r.body.MessageSids).toHaveLength(300);
		const hits = await eventually(
			() => {
				const got = catcher.requests.filter((q) => q.path === '/burst');
				return got.length === 300 ? got : undefined;
			},
			10_000,
			"the burst's callbacks",
		);
		expect(new Set(hits.map((h) => h.body.MessageSid))).toEqual(new Set(r.body.MessageSids));
		expect(hits.map((h) => h.body.Text).sort()).toEqual(replies.map((x) => x.Text).sort());
		// Each webhook call is its own request, yet they share connections, as a provider's do.
		expect(new Set(hits.map((h) => h.remotePort)).size).toBeLessThanOrEqual(32);
	});

	it('refuses a burst whole, naming the reply at fault, and receives none of it', async () => {
		const replies = await originals(3, 500, '/refused');
		const before = (await sb.messages()).length;
		const bad = await reply({ Replies: [replies[0], { ...replies[1], To: 'nope' }, replies[2]] });
		expect(bad.status).toBe(400);
		expect(bad.body.ResponseStatus.Errors.map((e: any) => e.FieldName)).toEqual(['Replies[1].To']);
		const stranger = await reply({
			Replies: [replies[0], { ...replies[1], From: '+61412999999' }],
		});
		expect(stranger.status).toBe(404);
		expect(stranger.body.ResponseStatus.Message).toMatch(/Replies\[1\]/);
		for (const empty of [[], 'x', Array.from({ length: 10_001 }, () => replies[0])]) {
			const r = await reply({ Replies: empty });
			expect(r.status).toBe(400);
			expect(r.body.ResponseStatus.Errors[0].FieldName).toBe('Replies');
		}
		expect((await sb.messages()).length).toBe(before);
		// A good reply after them, to the same webhook: once it is called back, any of theirs would have been.
		const [mark] = (await reply({ Replies: [replies[2]] })).body.MessageSids;
		await eventually(
			() => catcher.requests.some((q) => q.path === '/refused') || undefined,
			5000,
			"the later reply's callback",
		);
		expect(
			catcher.requests.filter((q) => q.path === '/refused').map((q) => q.body.MessageSid),
		).toEqual([mark]);
	});
});

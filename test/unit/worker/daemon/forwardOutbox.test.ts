import { afterEach, describe, expect, it } from 'vitest';
import type { DaemonStore } from '../../../../worker/src/storage/daemonStore';
import type {
	ForwardOutcome,
	Forwarder,
} from '../../../../worker/src/daemon/callbacks/6-forward/forwardOutcome';
import { ForwardOutbox } from '../../../../worker/src/daemon/callbacks/6-forward/forwardOutbox';
import type { ForwardPayload } from '../../../../worker/src/daemon/callbacks/6-forward/forwardPayload';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { openDaemonStore } from '../../../../worker/src/storage/openStores';
import { storeBackends, type StoreBackend } from '../../../support/storeBackends';

const backends = storeBackends();

const config = { maxAttempts: 4, backoffMs: 10, maxBackoffMs: 40, concurrency: 2 };
const lines: string[] = [];
const log = new JsonLogger((l) => lines.push(l));

function payload(
	sid: string,
	type: 'forwardEmail' | 'forwardSms' = 'forwardEmail',
): ForwardPayload {
	const action =
		type === 'forwardEmail' ? { type, to: ['a@example.com'] } : { type, to: '+61491570156' };
	return {
		action,
		context: {
			reply: {
				MessageSid: sid,
				OriginalMessageSid: 'o',
				AccountSid: 'a',
				PropertySid: 'p',
				From: '+61491570001',
				To: '+61400000001',
				Text: 'hi',
				ExternalId: '',
				Timestamp: 0,
			},
			receivedAt: 0,
		},
	} as ForwardPayload;
}

/** Answers from a script, then `sent`; records every attempt. */
class ScriptedForwarder implements Forwarder {
	attempts: string[] = [];
	constructor(private readonly script: ForwardOutcome[] = []) {}
	async send(p: ForwardPayload): Promise<ForwardOutcome> {
		this.attempts.push(p.context.reply.MessageSid);
		await new Promise((r) => setTimeout(r, 2));
		return this.script.shift() ?? { kind: 'sent' };
	}
	async close(): Promise<void> {}
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > end) throw new Error('timed out');
		await new Promise((r) => setTimeout(r, 10));
	}
}

const stores: DaemonStore[] = [];
/** The test's store; a second call opens it again, as a restarted worker would. */
async function openStore(backend: StoreBackend): Promise<DaemonStore> {
	const s = await openDaemonStore(backend.location());
	stores.push(s);
	return s;
}
afterEach(async () => {
	for (const s of stores.splice(0)) await s.close();
});

describe.each(backends)('the forward outbox ($name)', (backend) => {
	const store = () => openStore(backend);
	it('retries with back-off until the forward goes, then marks it sent', async () => {
		const s = await store();
		const email = new ScriptedForwarder([
			{ kind: 'retry', reason: 'ECONNECTION: SMTP down' },
			{ kind: 'retry', reason: 'ECONNECTION: SMTP down' },
		]);
		const outbox = new ForwardOutbox(s, { forwardEmail: email }, config, log);
		await s.completeEvents(
			[{ key: 'reply:m1', forwards: [{ actionKey: '0.0', payload: payload('m1') }] }],
			Date.now(),
		);
		outbox.start();
		await until(async () => (await s.forwardCounts()).sent === 1);
		expect(email.attempts).toEqual(['m1', 'm1', 'm1']);
		expect((await s.forwards())[0]).toMatchObject({ state: 'sent', attempts: 3 });
		await outbox.stop();
	});

	it('gives up at the attempt limit, marks the forward failed and reports it', async () => {
		const s = await store();
		const email = new ScriptedForwarder(
			Array.from({ length: 10 }, () => ({ kind: 'retry' as const, reason: 'ECONNECTION: down' })),
		);
		const outbox = new ForwardOutbox(s, { forwardEmail: email }, config, log);
		await s.completeEvents(
			[{ key: 'reply:m2', forwards: [{ actionKey: '0.0', payload: payload('m2') }] }],
			Date.now(),
		);
		outbox.start();
		await until(async () => (await s.forwardCounts()).failed === 1);
		expect(email.attempts).toHaveLength(config.maxAttempts);
		expect((await s.forwards())[0].lastError).toMatch(
			/gave up after 4 attempts; last: ECONNECTION/,
		);
		expect(
			lines.some((l) => l.includes('"forward failed"') && l.includes('"replyMessageSid":"m2"')),
		).toBe(true);
		await outbox.stop();
	});

	it("fails at once what will never go, and queues one event's forwards only once", async () => {
		const s = await store();
		const email = new ScriptedForwarder([
			{ kind: 'failed', reason: 'EENVELOPE 550: no such mailbox' },
		]);
		const outbox = new ForwardOutbox(s, { forwardEmail: email }, config, log);
		const forwards = [{ actionKey: '0.0', payload: payload('m3') }];
		await s.completeEvents([{ key: 'reply:m3', forwards: forwards }], Date.now());
		await s.completeEvents([{ key: 'reply:m3', forwards: forwards }], Date.now());
		outbox.start();
		await until(async () => (await s.forwardCounts()).failed === 1);
		expect(email.attempts).toEqual(['m3']);
		await outbox.stop();
	});

	it('after a crash mid-attempt, sends an e-mail again but never an SMS', async () => {
		const before = await store();
		await before.completeEvents(
			[{ key: 'reply:e', forwards: [{ actionKey: '0.0', payload: payload('e') }] }],
			Date.now(),
		);
		await before.completeEvents(
			[{ key: 'reply:s', forwards: [{ actionKey: '0.0', payload: payload('s', 'forwardSms') }] }],
			Date.now(),
		);
		expect(await before.claimDue(Date.now(), 10)).toHaveLength(2);
		await before.close();

		const after = await store();
		const email = new ScriptedForwarder();
		const sms = new ScriptedForwarder();
		const outbox = new ForwardOutbox(after, { forwardEmail: email, forwardSms: sms }, config, log);
		await outbox.recover();
		outbox.start();
		await until(async () => (await after.forwardCounts()).sent === 1);
		expect(email.attempts).toEqual(['e']);
		expect(sms.attempts).toEqual([]);
		expect(await after.forwardCounts()).toMatchObject({
			sent: 1,
			uncertain: 1,
			pending: 0,
			sending: 0,
		});
		await outbox.stop();
	});

	it('a forward claimed while its receiver is full goes even when the store cannot take it back', async () => {
		const s = await store();
		let release!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		const sent: string[] = [];
		const held: Forwarder = {
			send: async (p) => {
				if (p.context.reply.MessageSid === 'a') await gate;
				sent.push(p.context.reply.MessageSid);
				return { kind: 'sent' };
			},
			close: async () => {},
		};
		// A store that fails between the claim and the put-back (Postgres restarting, say).
		s.putBack = async () => {
			throw Object.assign(new Error('terminating connection due to administrator command'), {
				code: '57P01',
			});
		};
		const outbox = new ForwardOutbox(s, { forwardEmail: held }, { ...config, concurrency: 1 }, log);
		await s.completeEvents(
			[{ key: 'reply:a', forwards: [{ actionKey: '0.0', payload: payload('a') }] }],
			Date.now(),
		);
		await s.completeEvents(
			[{ key: 'reply:b', forwards: [{ actionKey: '0.0', payload: payload('b') }] }],
			Date.now(),
		);
		outbox.start();
		// b is claimed once a is slow and e-mail has no room: it may not wait for a restart.
		await until(async () => sent.includes('b'));
		release();
		await until(async () => (await s.forwardCounts()).sent === 2);
		await outbox.stop();
	});

	it('on stop, lets attempts under way finish and starts no new one', async () => {
		const s = await store();
		let release!: () => void;
		const gate = new Promise<void>((r) => (release = r));
		const slow: Forwarder = {
			send: async () => {
				await gate;
				return { kind: 'sent' };
			},
			close: async () => {},
		};
		const outbox = new ForwardOutbox(s, { forwardEmail: slow }, { ...config, concurrency: 1 }, log);
		await s.completeEvents(
			[{ key: 'reply:a', forwards: [{ actionKey: '0.0', payload: payload('a') }] }],
			Date.now(),
		);
		await s.completeEvents(
			[{ key: 'reply:b', forwards: [{ actionKey: '0.0', payload: payload('b') }] }],
			Date.now(),
		);
		outbox.start();
		await until(async () => (await s.forwardCounts()).sending === 1);
		const stopped = outbox.stop();
		release();
		await stopped;
		expect(await s.forwardCounts()).toMatchObject({ sent: 1, pending: 1, sending: 0 });
	});
});

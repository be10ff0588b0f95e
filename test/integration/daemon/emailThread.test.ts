import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmailForwarder } from '../../../worker/src/daemon/callbacks/6-forward/emailForwarder';
import type { ForwardPayload } from '../../../worker/src/daemon/callbacks/6-forward/forwardPayload';
import { ensureBuilt, freePort, ROOT } from './harness';

const THREAD = join(ROOT, 'worker/dist/worker/src/daemon/callbacks/6-forward/emailThread.js');

function payload(sid: string): ForwardPayload {
	return {
		action: { type: 'forwardEmail', to: ['team@example.com'] },
		context: {
			reply: { MessageSid: sid, From: '+61491000001', To: '+61480000001', Text: 'YES please' },
			receivedAt: Date.now(),
		},
	} as unknown as ForwardPayload;
}

/** A real SMTP server that holds each message's DATA until `release` is called. */
async function holdingSmtp(): Promise<{
	port: number;
	held: () => number;
	release: () => void;
	received: string[];
	close: () => Promise<void>;
}> {
	const waiting: (() => void)[] = [];
	const received: string[] = [];
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		closeTimeout: 100,
		onData(stream, _session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (c: Buffer) => chunks.push(c));
			stream.on('end', () => {
				received.push(Buffer.concat(chunks).toString('utf8'));
				waiting.push(() => callback());
			});
		},
	});
	const port = await freePort();
	await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
	return {
		port,
		held: () => waiting.length,
		release: () => waiting.splice(0).forEach((go) => go()),
		received,
		close: () => new Promise<void>((r) => server.close(() => r())),
	};
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closing.splice(0)) await close();
});
beforeAll(ensureBuilt, 180_000);

describe('the e-mail thread', () => {
	it('sends from its own thread, and a thread that dies hands back what it had under way as a retry, never lost', async () => {
		const smtp = await holdingSmtp();
		closing.push(smtp.close);
		const forwarder = new EmailForwarder(
			{ host: '127.0.0.1', port: smtp.port, allowInsecure: true, from: 'worker@example.com' },
			4,
			THREAD,
		);
		closing.push(() => forwarder.close());

		const held = forwarder.send(payload('held-1'), { id: 1, key: 'held-1.0.0', actionKey: '0.0' });
		await expect.poll(() => smtp.held(), { timeout: 10_000 }).toBe(1);
		// The thread dies with the message on the wire (the server has it, unanswered).
		await (forwarder as unknown as { thread: { terminate(): Promise<number> } }).thread.terminate();
		const outcome = await held;
		expect(outcome).toMatchObject({ kind: 'retry' });
		expect((outcome as { reason: string }).reason).toMatch(/e-mail thread/);

		// The next attempt starts a new thread and goes, under the same Message-ID.
		smtp.release();
		const again = forwarder.send(payload('held-1'), { id: 1, key: 'held-1.0.0', actionKey: '0.0' });
		await expect.poll(() => smtp.held(), { timeout: 10_000 }).toBe(1);
		smtp.release();
		expect(await again).toEqual({ kind: 'sent' });
		expect(smtp.received).toHaveLength(2);
		for (const raw of smtp.received)
			expect(raw).toMatch(/Message-ID: <held-1\.0\.0@cloudtel-worker>/i);
	});

	it('sends many at once over its pool, each answered with its own outcome', async () => {
		const smtp = await holdingSmtp();
		closing.push(smtp.close);
		const forwarder = new EmailForwarder(
			{ host: '127.0.0.1', port: smtp.port, allowInsecure: true, from: 'worker@example.com' },
			4,
			THREAD,
		);
		closing.push(() => forwarder.close());
		const sends = Array.from({ length: 40 }, (_, i) =>
			forwarder.send(payload(`m${i}`), { id: i, key: `m${i}.0.0`, actionKey: '0.0' }),
		);
		const release = setInterval(smtp.release, 5);
		try {
			expect(await Promise.all(sends)).toEqual(
				Array.from({ length: 40 }, () => ({ kind: 'sent' })),
			);
		} finally {
			clearInterval(release);
		}
		expect(
			new Set(smtp.received.map((raw) => /MessageSid: (\S+)/.exec(raw.replace(/=\r?\n/g, ''))?.[1]))
				.size,
		).toBe(40);
	});
});

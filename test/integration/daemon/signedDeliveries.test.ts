import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CallbackCatcher, type CaughtRequest } from '../../support/callbackCatcher';
import { cli } from '../worker/harness';
import {
	ensureBuilt,
	ROOT,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	workerOnSandbox,
	writeConfig,
} from './harness';

/**
 * Standard Webhooks, checked as a receiver would with its own code (not the worker's):
 * the key is the base64 after `whsec_`, the HMAC-SHA256 covers `{id}.{timestamp}.{body}`,
 * and `webhook-signature` holds `v1,<base64>` entries, space-separated.
 */
function signedBy(secret: string, r: CaughtRequest): boolean {
	const id = String(r.headers['webhook-id']);
	const timestamp = String(r.headers['webhook-timestamp']);
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${r.text}`).digest();
	return String(r.headers['webhook-signature'] ?? '')
		.split(' ')
		.some((entry) => {
			const [version, sig] = entry.split(',');
			const given = Buffer.from(sig ?? '', 'base64');
			return (
				version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
			);
		});
}

const secret = () => `whsec_${randomBytes(24).toString('base64')}`;
const WORKER = secret();
const PREVIOUS = secret();
const N8N = secret();
const POST = secret();
const CALLBACK_SECRET = 'signed-deliveries-secret-0123';

let sandbox: RunningSandbox;
let receiver: CallbackCatcher;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
	await ensureBuilt();
	sandbox = await startSandbox({ port: 0, receiptDelayMs: 50 });
	receiver = await CallbackCatcher.start();
}, 120_000);

afterAll(async () => {
	await worker?.stop('SIGKILL');
	await receiver?.close();
	await sandbox?.close();
});

/**
 * Every POST the worker sends (a forward to n8n, a reply rule's post, an event) is signed
 * per Standard Webhooks with its destination's secret, else the worker-wide one (both the
 * new and the previous while rotating); its webhook-id is the event's, the same on a retry.
 */
describe('signed deliveries', () => {
	it('signs n8n forwards, posts and events, each with its own secret, the same id on a retry', async () => {
		// The first delivery meets a 503: it goes again, newly timed and signed, under the same id.
		receiver.statuses = [503, 200];
		const started = await workerOnSandbox(sandbox, CALLBACK_SECRET, {
			outbox: { backoffMs: 50, maxBackoffMs: 200 },
			signing: { secret: WORKER, previousSecret: PREVIOUS },
			forward: { n8n: { url: `${receiver.url}/n8n`, events: ['reply'], signing: { secret: N8N } } },
			events: { url: `${receiver.url}/events`, types: ['reply'] },
			replies: [
				{ actions: [{ type: 'post', url: `${receiver.url}/post`, signing: { secret: POST } }] },
			],
		});
		worker = started.worker;
		const port = started.port;
		const driver = new SandboxDriver(sandbox);
		const m = await driver.send({
			To: '+61491570411',
			Text: 'Reply to win',
			WebhookUri: `http://127.0.0.1:${port}/callbacks/${CALLBACK_SECRET}/replies`,
		});
		const replySid = await driver.reply('+61491570411', m.From, 'yes please');
		const paths = ['/n8n', '/events', '/post'];
		const answered = () => receiver.requests.slice(1);
		await until(
			() => paths.every((p) => answered().some((r) => r.path === p)),
			30_000,
			'the reply at n8n, the events URL and the post',
		);

		const at = (path: string) => answered().find((r) => r.path === path)!;
		const byPath = { '/n8n': at('/n8n'), '/events': at('/events'), '/post': at('/post') };
		expect(byPath['/n8n'].headers['webhook-id']).toBe(`reply:${replySid}`);
		expect(byPath['/events'].headers['webhook-id']).toBe(`reply:${replySid}`);
		for (const r of receiver.requests) {
			expect(r.headers['webhook-id']).toBe(r.headers['idempotency-key']);
			const ts = Number(r.headers['webhook-timestamp']);
			expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
		}
		// Each with its destination's secret, and no other.
		expect(signedBy(N8N, byPath['/n8n'])).toBe(true);
		expect(signedBy(WORKER, byPath['/n8n'])).toBe(false);
		expect(signedBy(POST, byPath['/post'])).toBe(true);
		expect(signedBy(WORKER, byPath['/post'])).toBe(false);
		// The worker-wide secret, while rotating: two signatures, one per secret.
		const event = byPath['/events'];
		expect(String(event.headers['webhook-signature']).split(' ')).toHaveLength(2);
		expect(signedBy(WORKER, event)).toBe(true);
		expect(signedBy(PREVIOUS, event)).toBe(true);
		expect(signedBy(N8N, event)).toBe(false);
		// A body changed in transit no longer matches.
		expect(signedBy(WORKER, { ...event, text: event.text.replace('yes', 'no') })).toBe(false);

		// The documented 10-line example (the worker README's webhook details), as a reader copies it, agrees.
		const readme = readFileSync(join(ROOT, 'docs/internals.md'), 'utf8');
		const code = /```js\n(\/\/ verify\.js[\s\S]*?)```/.exec(readme)?.[1];
		expect(code?.split('\n').filter((l) => l.trim() !== '')).toHaveLength(12);
		const verify = new Function('require', `${code}; return verify;`)(require) as (
			secret: string,
			headers: CaughtRequest['headers'],
			body: string,
		) => boolean;
		expect(verify(N8N, byPath['/n8n'].headers, byPath['/n8n'].text)).toBe(true);
		expect(verify(PREVIOUS, event.headers, event.text)).toBe(true);
		expect(verify(POST, byPath['/n8n'].headers, byPath['/n8n'].text)).toBe(false);
		expect(verify(WORKER, event.headers, event.text.replace('yes', 'no'))).toBe(false);
		const stale = {
			...event.headers,
			'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600),
		};
		expect(verify(WORKER, stale, event.text)).toBe(false);

		// The refused first attempt and its retry: one id, each attempt signed for itself.
		const [refused] = receiver.requests;
		const retry = answered().find((r) => r.path === refused.path)!;
		expect(retry.headers['webhook-id']).toBe(refused.headers['webhook-id']);
		for (const r of [refused, retry])
			expect(
				signedBy(refused.path === '/n8n' ? N8N : refused.path === '/post' ? POST : WORKER, r),
			).toBe(true);
	}, 60_000);

	it('cloudtel secret new prints a whsec_ secret of 32 random bytes; a bad one is refused by name', async () => {
		const [a, b] = await Promise.all([cli(['secret', 'new']), cli(['secret', 'new'])]);
		expect(a.code).toBe(0);
		const printed = a.stdout.trim();
		expect(printed).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
		expect(Buffer.from(printed.slice(6), 'base64')).toHaveLength(32);
		expect(b.stdout.trim()).not.toBe(printed);

		const config = writeConfig(tempDir(), {
			provider: { baseUrl: 'http://127.0.0.1:1', accountSid: 'A', authToken: 'token-0123456789' },
			server: { publicUrl: 'https://w.example.com', secret: CALLBACK_SECRET },
			signing: { secret: 'whsec_short', previousSecret: printed },
			events: {
				url: 'https://n8n.example.com/w',
				signing: { secret: printed, previousSecret: printed },
			},
		});
		const check = await cli(['worker', '--config', config, '--check']);
		expect(check.code).toBe(2);
		expect(check.stderr).toContain(
			'signing.secret: must be whsec_ then a base64 key of at least 16 bytes',
		);
		expect(check.stderr).toContain('events.signing.previousSecret: is the same as secret');
		expect(check.stderr).not.toContain(printed);
	});
});

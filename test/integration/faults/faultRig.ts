import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	SmtpSink,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from '../daemon/harness';

export const SECRET = 'fault-suite-secret-0123456789';
export const REPORT_TOKEN = 'fault-suite-report-token-0123';

/**
 * What the fault suite runs against: the sandbox, a real SMTP server, a receiver of POST
 * forwards, and a worker config whose every reply is forwarded by e-mail and by POST.
 * Counting is by what the receivers got: e-mails by Message-ID, posts by Idempotency-Key.
 */
export class FaultRig {
	sandbox!: RunningSandbox;
	driver!: SandboxDriver;
	smtp!: SmtpSink;
	posts!: CallbackCatcher;
	dir = tempDir();
	port = 0;
	env: Record<string, string> = {};
	/** Phones that got a message from a leased number whose replies come to this worker. */
	readonly phones: { to: string; leased: string }[] = [];

	/**
	 * A rig started before a test file's tests and closed after them, the worker `running()`
	 * returns (one a failed test left running) killed first. Call at the top level of a test file.
	 */
	static forFile(running: () => WorkerProcess | undefined): FaultRig {
		const rig = new FaultRig();
		beforeAll(async () => {
			await rig.start();
		}, 180_000);
		afterAll(async () => {
			await running()?.stop('SIGKILL');
			await rig.close();
		});
		return rig;
	}

	async start(phones = 20): Promise<void> {
		await ensureBuilt();
		this.sandbox = await startSandbox({ port: 0, receiptDelayMs: 60_000 });
		this.driver = new SandboxDriver(this.sandbox);
		this.smtp = new SmtpSink(await freePort());
		await this.smtp.start();
		this.posts = await CallbackCatcher.start();
		this.port = await freePort();
		this.env = {
			CLOUDTEL_BASE_URL: this.sandbox.url,
			CLOUDTEL_ACCOUNT_SID: this.sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: this.sandbox.demo.AuthToken,
		};
		for (let i = 0; i < phones; i++) {
			const to = `+614915703${String(i).padStart(2, '0')}`;
			const m = await this.driver.send({
				To: to,
				Text: 'Reply to win',
				ExternalId: `promo-20300101T000000Z:${i + 2}`,
				WebhookUri: `http://127.0.0.1:${this.port}/callbacks/${SECRET}/replies`,
			});
			this.phones.push({ to, leased: m.From });
		}
	}

	config(db: string, extra: Record<string, unknown> = {}, name = 'worker.config.json'): string {
		return writeConfig(
			this.dir,
			{
				db,
				server: {
					publicUrl: `http://127.0.0.1:${this.port}`,
					port: this.port,
					host: '127.0.0.1',
					secret: SECRET,
					reportToken: REPORT_TOKEN,
				},
				smtp: {
					host: '127.0.0.1',
					port: this.smtp.port,
					allowInsecure: true,
					from: 'worker@example.com',
					user: this.smtp.user,
					password: this.smtp.password,
				},
				outbox: { maxAttempts: 1000, backoffMs: 50, maxBackoffMs: 500, concurrency: 16 },
				replies: [
					{
						actions: [
							{ type: 'forwardEmail', to: 'team@example.com' },
							{ type: 'post', url: `${this.posts.url}/replies` },
						],
					},
				],
				...extra,
			},
			name,
		);
	}

	startWorker(config: string): Promise<WorkerProcess> {
		return WorkerProcess.start(config, this.env);
	}

	/** A burst of replies, handed to the sandbox at once; returns their MessageSids. */
	async burst(count: number, text = (i: number) => `reply ${i}`): Promise<string[]> {
		const replies = Array.from({ length: count }, (_, i) => ({
			From: this.phones[i % this.phones.length].to,
			To: this.phones[i % this.phones.length].leased,
			Text: text(i),
		}));
		const res = await fetch(`${this.sandbox.url}/_sandbox/replies`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ Replies: replies }),
		});
		if (res.status !== 200) throw new Error(`burst refused: ${res.status} ${await res.text()}`);
		return ((await res.json()) as { MessageSids: string[] }).MessageSids;
	}

	/** Whether the sandbox is done calling back these replies: answered 200, or out of attempts. */
	async callbacksDone(
		sids: string[],
	): Promise<{ delivered: number; refused: number; pending: number }> {
		const calls = (await this.driver.outbox()).Callbacks as {
			MessageSid: string;
			Delivered: boolean;
			Attempt: number;
		}[];
		const by = new Map<string, { delivered: boolean; attempts: number }>();
		for (const c of calls) {
			const seen = by.get(c.MessageSid) ?? { delivered: false, attempts: 0 };
			by.set(c.MessageSid, {
				delivered: seen.delivered || c.Delivered,
				attempts: Math.max(seen.attempts, c.Attempt),
			});
		}
		let delivered = 0;
		let refused = 0;
		for (const sid of sids) {
			const c = by.get(sid);
			if (c?.delivered) delivered++;
			else if (c && c.attempts >= 3) refused++;
		}
		return { delivered, refused, pending: sids.length - delivered - refused };
	}

	/**
	 * E-mails and posts per reply. `lost`: a reply missing one of them. `twice`: a reply
	 * forwarded under two identities (Message-IDs, Idempotency-Keys), which no receiver can
	 * tell for a repeat. `repeats`: deliveries of an identity already delivered, which a
	 * receiver drops by that identity (a crash between an attempt and its mark does that).
	 */
	forwarded(sids: string[]): {
		emailed: number;
		posted: number;
		lost: string[];
		twice: string[];
		repeats: number;
	} {
		const ids = new Map<string, Set<string>>();
		const wanted = new Set(sids);
		let deliveries = 0;
		let distinct = 0;
		const add = (sid: string, id: string) => {
			if (!wanted.has(sid)) return;
			const set = ids.get(sid) ?? new Set<string>();
			deliveries++;
			if (!set.has(id)) distinct++;
			set.add(id);
			ids.set(sid, set);
		};
		for (const m of this.smtp.mails)
			add(
				/MessageSid: (\S+)/.exec(m.text)?.[1] ?? '',
				`mail:${/^Message-ID:\s*<([^>]+)>/im.exec(m.raw)?.[1] ?? Math.random()}`,
			);
		for (const p of this.posts.requests) {
			const key = String(p.headers['idempotency-key'] ?? Math.random());
			add(key.split('.')[0], `post:${key}`);
		}
		const kinds = (sid: string, kind: string) =>
			[...(ids.get(sid) ?? [])].filter((i) => i.startsWith(kind)).length;
		const lost = sids.filter((s) => kinds(s, 'mail:') === 0 || kinds(s, 'post:') === 0);
		const twice = sids.filter((s) => kinds(s, 'mail:') > 1 || kinds(s, 'post:') > 1);
		const repeats = deliveries - distinct;
		return {
			emailed: sids.filter((s) => kinds(s, 'mail:') > 0).length,
			posted: sids.filter((s) => kinds(s, 'post:') > 0).length,
			lost,
			twice,
			repeats,
		};
	}

	/**
	 * Waits until every reply is forwarded both ways, or the time is up; then until the
	 * worker holds nothing more to send (no event to process, no forward pending or under
	 * way, nothing spooled), so any repeat has been delivered by then.
	 */
	async settle(sids: string[], timeoutMs = 60_000): Promise<ReturnType<FaultRig['forwarded']>> {
		await until(
			() => this.forwarded(sids).lost.length === 0,
			timeoutMs,
			'every reply forwarded',
		).catch(() => undefined);
		await until(() => this.idle(), timeoutMs, 'the worker idle').catch(() => undefined);
		return this.forwarded(sids);
	}

	/** The worker's /health, with the counts its report token shows, says nothing waits to be sent. */
	async idle(): Promise<boolean> {
		const res = await fetch(`http://127.0.0.1:${this.port}/health`, {
			headers: { authorization: `Bearer ${REPORT_TOKEN}` },
		}).catch(() => undefined);
		if (res?.status !== 200) return false;
		const body = (await res.json()) as {
			eventsWaiting?: number;
			outbox?: Record<string, number>;
			spool?: { events: number };
		};
		return (
			body.eventsWaiting === 0 &&
			body.spool?.events === 0 &&
			(body.outbox?.pending ?? 0) === 0 &&
			(body.outbox?.sending ?? 0) === 0
		);
	}

	async close(): Promise<void> {
		await Promise.allSettled([this.sandbox?.close(), this.smtp?.stop(), this.posts?.close()]);
	}
}

export { until, WorkerProcess };

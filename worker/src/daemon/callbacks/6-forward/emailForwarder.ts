import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SmtpConfig } from '../../../config/workerConfigSchema';
import type { EmailThreadReply, EmailThreadRequest } from './emailThreadMessages';
import type { ForwardIdentity, ForwardOutcome, Forwarder } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';

/** However the e-mail thread ends up at close, the daemon waits no longer than this. */
const CLOSE_MS = 5000;

/**
 * Forwards replies by e-mail from a thread of its own. Composing a message and speaking
 * SMTP cost more CPU than everything else a reply asks of the daemon; on the thread's own
 * core they leave the daemon's thread free to take callbacks. A thread that dies takes no
 * message with it: what it had under way comes back as a retry, under the same Message-ID.
 */
export class EmailForwarder implements Forwarder {
	private thread: Worker | undefined;
	private readonly waiting = new Map<number, (outcome: ForwardOutcome) => void>();
	private nextId = 0;

	constructor(
		private readonly smtp: SmtpConfig,
		private readonly connections: number,
		/** The thread's compiled script; tests running the sources name the built one. */
		private readonly script = join(__dirname, 'emailThread.js'),
	) {}

	send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome> {
		const thread = this.thread ?? this.start();
		const id = ++this.nextId;
		return new Promise((resolve) => {
			this.waiting.set(id, resolve);
			thread.postMessage({ type: 'send', id, payload, identity } satisfies EmailThreadRequest);
		});
	}

	async close(): Promise<void> {
		const thread = this.thread;
		if (!thread) return;
		this.thread = undefined;
		const exited = once(thread, 'exit');
		thread.postMessage({ type: 'close' } satisfies EmailThreadRequest);
		const timer = setTimeout(() => void thread.terminate(), CLOSE_MS);
		await exited;
		clearTimeout(timer);
	}

	private start(): Worker {
		const thread = new Worker(this.script, {
			workerData: { smtp: this.smtp, connections: this.connections },
		});
		thread.unref();
		thread.on('message', ({ id, outcome }: EmailThreadReply) => {
			this.waiting.get(id)?.(outcome);
			this.waiting.delete(id);
		});
		thread.on('error', (error) => this.lost(thread, `the e-mail thread failed: ${error.message}`));
		thread.on('exit', (code) => this.lost(thread, `the e-mail thread exited (${code})`));
		this.thread = thread;
		return thread;
	}

	private lost(thread: Worker, reason: string): void {
		if (this.thread === thread) this.thread = undefined;
		for (const resolve of this.waiting.values()) resolve({ kind: 'retry', reason });
		this.waiting.clear();
	}
}

import type { Worker } from 'node:cluster';
import type { Server, Socket } from 'node:net';
import type { Logger } from '../jsonLogger';
import { RefusalLog } from '../http/refusalLog';

/** Supervisor to copy: this connection (the socket goes with the message) is yours. */
const CONNECTION = 'cloudtel:connection';
/** Copy to supervisor: the last connection arrived; send the next. */
const TOOK = 'cloudtel:took';
/** Set in a copy's environment: the supervisor listens on this port and hands over the connections. */
export const HANDED_PORT_ENV = 'CLOUDTEL_WORKER_HANDED_PORT';

/** A connection no copy has taken for this long is closed (the sender tries again); the copies' own request timeout. */
const WAIT_MS = 30_000;

interface Taker {
	worker: Worker;
	/** A connection is on its way to it and not yet confirmed. */
	busy: boolean;
	onMessage: (message: unknown) => void;
}

/**
 * The connections the process the user started accepts, handed to the copy of the worker
 * that takes callbacks, one at a time: the next goes once the copy says it has the last,
 * so a copy that dies leaves at most one connection in the channel (reset; the provider
 * tries it again), never a queue of them. While no copy takes them (one restarting, a
 * reload between copies), they wait here unread, up to `limit` (the copies' own cap;
 * beyond it a connection is closed at once), and go to the next copy that is ready.
 */
export class ConnectionHandover {
	private readonly waiting: { socket: Socket; timer: NodeJS.Timeout }[] = [];
	private taker: Taker | undefined;
	private stopped = false;
	/** Since when connections wait with no copy to take them, and how many were closed meanwhile. */
	private gap: { since: number; closed: number } | undefined;
	/** Connections closed beyond the limit: counted, a line a minute at most. */
	private readonly closed: RefusalLog;

	constructor(
		server: Server,
		private readonly limit: number,
		private readonly log: () => Logger,
	) {
		server.on('connection', (socket: Socket) => this.take(socket));
		// The supervisor's log changes with the config a reload loads.
		this.closed = new RefusalLog({
			debug: (m, f) => log().debug(m, f),
			info: (m, f) => log().info(m, f),
			warn: (m, f) => log().warn(m, f),
			error: (m, f) => log().error(m, f),
		});
	}

	/** From now on connections go to this copy (it takes callbacks), those waiting first. */
	handTo(worker: Worker): void {
		if (this.stopped) return;
		this.release();
		const taker: Taker = {
			worker,
			busy: false,
			onMessage: (message) => {
				if (message !== TOOK || this.taker !== taker) return;
				taker.busy = false;
				this.pump();
			},
		};
		worker.on('message', taker.onMessage);
		this.taker = taker;
		if (this.gap) {
			this.log().info('connections that waited for a worker copy are handed to it', {
				waiting: this.waiting.length,
				waitedMs: Date.now() - this.gap.since,
				closed: this.gap.closed,
			});
			this.gap = undefined;
		}
		this.pump();
	}

	/** This copy takes no more connections (it stops, or it died). */
	release(worker?: Worker): void {
		if (!this.taker || (worker && this.taker.worker !== worker)) return;
		this.taker.worker.off('message', this.taker.onMessage);
		this.taker = undefined;
	}

	/** A stop: no connection is handed any more; those waiting are closed. */
	stop(): void {
		this.stopped = true;
		this.release();
		for (const { socket, timer } of this.waiting.splice(0)) {
			clearTimeout(timer);
			socket.destroy();
		}
		this.closed.flush();
	}

	private take(socket: Socket): void {
		// A connection reset while it waits must not be an uncaught error here.
		socket.on('error', () => undefined);
		if (this.stopped) return void socket.destroy();
		// The copy's own cap counts the one on its way to it too.
		if (this.waiting.length + (this.taker?.busy ? 1 : 0) >= this.limit) {
			if (this.gap) this.gap.closed++;
			this.closed.refused('too many connections wait for a worker copy', {
				limit: this.limit,
				from: socket.remoteAddress,
			});
			return void socket.destroy();
		}
		if (!this.taker && !this.gap) this.gap = { since: Date.now(), closed: 0 };
		const timer = setTimeout(() => {
			const i = this.waiting.findIndex((w) => w.socket === socket);
			if (i >= 0) this.waiting.splice(i, 1);
			socket.destroy();
		}, WAIT_MS);
		timer.unref();
		this.waiting.push({ socket, timer });
		this.pump();
	}

	private pump(): void {
		const taker = this.taker;
		if (!taker || taker.busy) return;
		if (!taker.worker.isConnected()) return this.release(taker.worker);
		const next = this.waiting.shift();
		if (!next) return;
		clearTimeout(next.timer);
		taker.busy = true;
		taker.worker.send({ type: CONNECTION }, next.socket, (error: Error | null) => {
			// Not written (the copy's channel broke): node closes that connection, the sender
			// tries it again; the others wait for the next copy.
			if (error && this.taker === taker) {
				taker.busy = false;
				this.release(taker.worker);
			}
		});
	}
}

/** In a copy: the connections the supervisor hands over, each given to `serve`. */
export function takeHandedConnections(serve: (socket: Socket) => void): void {
	process.on('message', (message: { type?: string } | undefined, socket?: Socket) => {
		if (message?.type !== CONNECTION) return;
		if (socket) serve(socket);
		process.send?.(TOOK);
	});
}

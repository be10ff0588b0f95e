import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Counts the server's open connections, in all and per client address. One opened beyond
 * the cap is kept just long enough for its request to be answered 503 (a reset would look
 * like a network fault to the sender, and the provider retries a 503); one that sends no
 * request is not waited for long. One beyond its address's own share is closed at once and
 * not counted: a single address, however many connections it opens, cannot fill the cap
 * and starve the provider's callbacks.
 */
export class ConnectionCap {
	private open = 0;
	private readonly perClient = new Map<string, number>();
	private readonly over = new WeakSet<Socket>();

	constructor(
		server: Server,
		readonly limit: number,
		readonly perClientLimit: number,
		/** A connection closed beyond its address's share. */
		onClientOver: (address: string) => void,
	) {
		server.on('connection', (socket: Socket) => {
			const address = socket.remoteAddress ?? '';
			const mine = (this.perClient.get(address) ?? 0) + 1;
			if (mine > perClientLimit) {
				onClientOver(address);
				return void socket.destroy();
			}
			this.perClient.set(address, mine);
			this.open++;
			socket.once('close', () => {
				this.open--;
				const left = (this.perClient.get(address) ?? 1) - 1;
				if (left > 0) this.perClient.set(address, left);
				else this.perClient.delete(address);
			});
			if (this.open > limit) {
				this.over.add(socket);
				socket.setTimeout(2000, () => socket.destroy());
			}
		});
	}

	/** Whether this connection was opened beyond the cap. */
	isOver(socket: Socket): boolean {
		return this.over.has(socket);
	}

	/**
	 * Whether the API and the reports have used their share: the last quarter of the cap is
	 * kept for callbacks, which the provider gives up on after a few attempts.
	 */
	sharedFull(): boolean {
		return this.open > this.limit - Math.floor(this.limit / 4);
	}
}

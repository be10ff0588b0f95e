import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
	lostConnection,
	newPool,
	transaction,
} from '../../../../worker/src/storage/postgres/pgDatabase';

/**
 * A Postgres that speaks just enough of the wire protocol: it trusts every login and answers
 * every simple query with an empty result, except that `answer` may append more to one
 * answer, in the same write, so the client parses both from one packet.
 */
function fakePostgres(
	afterAnswer: (query: string, connection: number) => Buffer | undefined,
): Promise<{ server: Server; port: number; queries: string[] }> {
	const queries: string[] = [];
	let connections = 0;
	const server = createServer((socket: Socket) => {
		const connection = ++connections;
		let buffer = Buffer.alloc(0);
		let started = false;
		socket.on('error', () => undefined);
		socket.on('data', (data) => {
			buffer = Buffer.concat([buffer, data]);
			for (;;) {
				if (!started) {
					if (buffer.length < 4 || buffer.length < buffer.readInt32BE(0)) return;
					buffer = buffer.subarray(buffer.readInt32BE(0));
					started = true;
					socket.write(Buffer.concat([message('R', int32(0)), message('Z', Buffer.from('I'))]));
					continue;
				}
				if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return;
				const type = String.fromCharCode(buffer[0]);
				const body = buffer.subarray(5, 1 + buffer.readInt32BE(1));
				buffer = buffer.subarray(1 + buffer.readInt32BE(1));
				if (type === 'X') return void socket.end();
				const query = body.toString('utf8').replace(/\0$/, '');
				queries.push(query);
				const extra = afterAnswer(query, connection);
				socket.write(
					Buffer.concat([
						message('C', cstring(query.split(' ')[0])),
						message('Z', Buffer.from('I')),
						extra ?? Buffer.alloc(0),
					]),
				);
				if (extra) socket.end();
			}
		});
	});
	return new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () =>
			resolve({ server, port: (server.address() as { port: number }).port, queries }),
		),
	);
}

function message(type: string, body: Buffer): Buffer {
	return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}
function int32(n: number): Buffer {
	const b = Buffer.alloc(4);
	b.writeInt32BE(n);
	return b;
}
function cstring(s: string): Buffer {
	return Buffer.from(`${s}\0`);
}
/** What a server shutting down sends each session: FATAL 57P01. */
const ADMIN_SHUTDOWN = message(
	'E',
	Buffer.concat([
		cstring('SFATAL'),
		cstring('VFATAL'),
		cstring('C57P01'),
		cstring('Mterminating connection due to administrator command'),
		Buffer.from([0]),
	]),
);

const servers: Server[] = [];
afterEach(() => {
	for (const s of servers.splice(0)) s.close();
});

describe('a Postgres connection handed from one caller to the next', () => {
	it('a shutdown error in the same packet as the answer reaches no one, ends nothing, and the next caller sees a lost connection it can retry', async () => {
		const fake = await fakePostgres((query, connection) =>
			query === 'SELECT 1' && connection === 1 ? ADMIN_SHUTDOWN : undefined,
		);
		servers.push(fake.server);
		const pool = newPool({
			connectionString: `postgres://cloudtel@127.0.0.1:${fake.port}/cloudtel`,
			max: 1,
		});
		// In the worker, an error no one hears ends the process (crashHandler.ts).
		const uncaught: unknown[] = [];
		const hear = (error: unknown) => uncaught.push(error);
		process.on('uncaughtException', hear);
		try {
			// One connection: the transaction waits for the one pool.query holds, and is handed
			// it while the socket's packet, with the FATAL after the answer, is still being read.
			const first = pool.query('SELECT 1');
			const second = transaction(pool, (client) => client.query('SELECT 2'));
			await expect(first).resolves.toMatchObject({ command: 'SELECT' });
			const failed = await second.then(
				() => undefined,
				(error: unknown) => error,
			);
			expect(failed).toBeInstanceOf(Error);
			expect(lostConnection(failed)).toBe(true);
			// The broken connection was thrown away: the retry gets a new one and its work is done.
			await expect(transaction(pool, (client) => client.query('SELECT 3'))).resolves.toMatchObject({
				command: 'SELECT',
			});
			expect(fake.queries.slice(-3)).toEqual(['BEGIN', 'SELECT 3', 'COMMIT']);
			expect(uncaught).toEqual([]);
		} finally {
			process.off('uncaughtException', hear);
			await pool.end();
		}
	});
});

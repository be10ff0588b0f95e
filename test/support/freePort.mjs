// A port for a process a test starts, shared by the tests, the e2e harness and the
// embedded Postgres's launcher (plain JavaScript, so all three can load it).
import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768 and up): a port the kernel picks for listen(0) is one
// it may also give the next outgoing connection's own end (to the sandbox, to Postgres)
// before the started process binds it, which then fails on EADDRINUSE. A port below that
// range goes to no connection, only to whoever binds it.
const FIRST = 20_000;
const COUNT = 12_000;
// Test files run several at once (vitest's pools): each pool draws from a slice of its own,
// so two files running side by side can never be handed the same port. Slice 0 is for
// whoever runs outside a pool (the run's Postgres); the e2e suite, run beside vitest by
// scripts/test.mjs, names its own (CLOUDTEL_PORT_SLICE).
const SLICES = 8;
const SLICE = Math.floor(COUNT / SLICES);
const given = new Set();

/** A port nothing listens on now, never the same twice in one process, never another pool's. */
export async function freePort() {
	for (;;) {
		const pool =
			Number(process.env.CLOUDTEL_PORT_SLICE ?? process.env.VITEST_POOL_ID ?? 0) % SLICES;
		const port = FIRST + pool * SLICE + Math.floor(Math.random() * SLICE);
		if (given.has(port)) continue;
		given.add(port);
		if (await canListen(port)) return port;
	}
}

function canListen(port) {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

// A port for a process a test starts, shared by the tests, the e2e harness and the
// embedded Postgres's launcher (plain JavaScript, so all three can load it).
import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768 and up): a port the kernel picks for listen(0) is one
// it may also give the next outgoing connection's own end (to the sandbox, to Postgres)
// before the started process binds it, which then fails on EADDRINUSE. A port below that
// range goes to no connection, only to whoever binds it.
const FIRST = 20_000;
const COUNT = 12_000;
const given = new Set();

/** A port nothing listens on now, never the same twice in one process. */
export async function freePort() {
	for (;;) {
		const port = FIRST + Math.floor(Math.random() * COUNT);
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

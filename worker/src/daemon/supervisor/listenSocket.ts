import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Logger } from '../jsonLogger';

/** sd_listen_fds(3): the sockets systemd passes start at this descriptor. */
const SD_LISTEN_FDS_START = 3;

/**
 * The descriptor systemd's socket activation passed to this process, if any: `LISTEN_FDS`
 * at least 1 and `LISTEN_PID` this process's pid (else the variables were meant for a
 * process that handed them down). As sd_listen_fds does, the variables are taken out of the
 * environment either way, so the copies of the worker never take them for theirs.
 */
export function passedSocket(env: NodeJS.ProcessEnv, pid: number, log: Logger): number | undefined {
	const fds = env.LISTEN_FDS;
	const listenPid = env.LISTEN_PID;
	delete env.LISTEN_FDS;
	delete env.LISTEN_PID;
	delete env.LISTEN_FDNAMES;
	if (fds === undefined) return undefined;
	const count = Number(fds);
	if (listenPid !== String(pid) || !Number.isInteger(count) || count < 1) {
		log.warn(
			'LISTEN_FDS ignored: it is not for this process; binding server.host and server.port',
			{ LISTEN_FDS: fds, LISTEN_PID: listenPid, pid },
		);
		return undefined;
	}
	if (count > 1)
		log.warn('systemd passed more than one socket; the worker listens on the first (fd 3) only', {
			LISTEN_FDS: count,
		});
	return SD_LISTEN_FDS_START;
}

/**
 * The worker's listening socket, held by the process the user started: the one systemd
 * passed (socket activation), or server.host:server.port bound here. Connections are
 * accepted paused: they are handed, unread, to the copy of the worker that takes them.
 */
export async function openListenSocket(
	server: { host: string; port: number },
	log: Logger,
): Promise<Server> {
	const fd = passedSocket(process.env, process.pid, log);
	const listener = createServer({ pauseOnConnect: true });
	try {
		await new Promise<void>((resolve, reject) => {
			listener.once('error', reject);
			listener.listen(fd !== undefined ? { fd } : { host: server.host, port: server.port }, () => {
				listener.off('error', reject);
				resolve();
			});
		});
	} catch (error) {
		if (fd === undefined) throw error;
		throw new Error(
			`cannot listen on the socket systemd passed (fd ${fd}, LISTEN_FDS): ${(error as Error).message}`,
		);
	}
	const address = listener.address();
	const where =
		typeof address === 'string' || address === null
			? { path: address }
			: { host: (address as AddressInfo).address, port: (address as AddressInfo).port };
	log.info(
		'listening',
		fd !== undefined
			? { socket: 'passed by systemd (LISTEN_FDS)', fd, ...where }
			: { socket: 'bound by the worker', ...where },
	);
	return listener;
}

/** The port a copy reports as its own (none for a Unix socket systemd passed). */
export function listenPort(listener: Server): number {
	const address = listener.address();
	return typeof address === 'object' && address !== null ? address.port : 0;
}

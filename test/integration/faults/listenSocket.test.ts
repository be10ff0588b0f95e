import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { CLI } from '../daemon/harness';
import { FaultRig, SECRET, until, WorkerProcess } from './faultRig';

// The process the user started holds the listening socket (or, under systemd's socket
// activation, the socket systemd holds is passed to it): connections that arrive while no
// copy of the worker takes them wait instead of being refused.

let worker: WorkerProcess | undefined;
const rig = FaultRig.forFile(() => worker);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pids of a process's children (Linux). */
function childrenOf(pid: number): number[] {
	try {
		return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean)
			.map(Number);
	} catch {
		return [];
	}
}

/** Every attempt the sandbox made for these replies that found the port closed. */
async function refusedConnections(sids: string[]): Promise<number> {
	const wanted = new Set(sids);
	const calls = (await rig.driver.outbox()).Callbacks as { MessageSid: string; Error?: string }[];
	return calls.filter((c) => wanted.has(c.MessageSid) && c.Error === 'ECONNREFUSED').length;
}

/** Sends a raw request on a connection of its own; resolves with all it got back ('' for a connection closed unanswered). */
function ask(port: number, request: string): Promise<string> {
	return new Promise((resolve) => {
		let got = '';
		const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
		socket.on('data', (d) => (got += String(d)));
		socket.on('error', () => undefined);
		socket.on('close', () => resolve(got));
	});
}

/**
 * A socket as systemd's `.socket` unit holds it: bound (and, once a worker listens on it,
 * listening) but never accepted on by its holder, so what arrives while no worker runs
 * waits in the kernel's backlog. A net.Server here would accept connections itself;
 * net._createServerHandle (what node's cluster uses for a shared socket) binds without that.
 */
function heldSocket(port: number): { fd: number; close(): void } {
	const handle = (
		net as unknown as {
			_createServerHandle(
				address: string,
				port: number,
				addressType: number,
			): { fd: number; close(): void } | number;
		}
	)._createServerHandle('127.0.0.1', port, 4);
	if (typeof handle === 'number') throw new Error(`could not bind 127.0.0.1:${port} (${handle})`);
	return handle;
}

describe('the listening socket', () => {
	it('a worker copy SIGKILLed in the middle of a burst of 500 replies, started again by the supervisor: no connection refused, every reply answered 200 and forwarded once', async () => {
		const config = rig.config(
			`${rig.dir}/copy.db`,
			{ spool: { dir: `${rig.dir}/spool-copy` } },
			'copy.json',
		);
		worker = await rig.startWorker(config);
		const copies = childrenOf(worker.child.pid!);
		expect(copies).toHaveLength(1);
		const sids = await rig.burst(500);
		await sleep(100);
		const before = await rig.callbacksDone(sids);
		process.kill(copies[0], 'SIGKILL');
		await worker.waitFor(
			(l) => l.msg === 'the worker copy exited unexpectedly; starting a new one',
			10_000,
			'the copy restarted',
		);
		await until(
			() => worker!.count((l) => l.msg === 'worker started') === 2,
			30_000,
			'the new copy',
		);
		await until(
			async () => (await rig.callbacksDone(sids)).pending === 0,
			30_000,
			'the sandbox to be done',
		);
		const calls = await rig.callbacksDone(sids);
		const refused = await refusedConnections(sids);
		const result = await rig.settle(sids, 90_000);
		console.log(
			`copy SIGKILLed with ${before.delivered} of 500 replies answered: ${calls.delivered} answered 200, ${calls.refused} lost, ${refused} connections refused, ${result.repeats} forwards repeated under their own identity`,
		);
		expect(calls).toEqual({ delivered: 500, refused: 0, pending: 0 });
		expect(refused).toBe(0);
		// Each forwarded once: under one Message-ID and one Idempotency-Key (an attempt the
		// kill cut off between sending and its mark goes again under the same one).
		expect({ lost: result.lost.length, twice: result.twice }).toEqual({ lost: 0, twice: [] });
		expect(childrenOf(worker.child.pid!)).toHaveLength(1);
		expect(await worker.stop('SIGTERM')).toBe(0);
		worker = undefined;
	}, 240_000);

	it('connections a copy cannot take yet wait in the supervisor up to server.maxConnections; beyond, each is closed at once and counted in the log; those waiting are served once the copy takes them', async () => {
		const config = rig.config(
			`${rig.dir}/cap.db`,
			{
				spool: { dir: `${rig.dir}/spool-cap` },
				server: {
					publicUrl: `http://127.0.0.1:${rig.port}`,
					port: rig.port,
					host: '127.0.0.1',
					secret: SECRET,
					maxConnections: 4,
				},
			},
			'cap.json',
		);
		worker = await rig.startWorker(config);
		const [copy] = childrenOf(worker.child.pid!);
		// The copy stopped: the first connection is on its way to it, the next ones wait.
		process.kill(copy, 'SIGSTOP');
		try {
			const asks = Array.from({ length: 6 }, () =>
				ask(rig.port, 'GET /ready HTTP/1.1\r\nHost: worker\r\nConnection: close\r\n\r\n'),
			);
			const closed = await until(
				async () => {
					const settled = await Promise.all(
						asks.map((a) => Promise.race([a, sleep(0).then(() => undefined)])),
					);
					const done = settled.filter((a) => a !== undefined);
					return done.length >= 2 && done;
				},
				10_000,
				'the connections beyond the cap closed',
			);
			expect(closed).toEqual(['', '']);
			await sleep(300);
			// Nothing else settled while the copy could not take them.
			const early = await Promise.all(
				asks.map((a) => Promise.race([a, sleep(0).then(() => 'waiting')])),
			);
			expect(early.filter((a) => a === 'waiting')).toHaveLength(4);
			process.kill(copy, 'SIGCONT');
			const answers = await Promise.all(asks);
			expect(answers.filter((a) => a === '')).toHaveLength(2);
			expect(answers.filter((a) => a.startsWith('HTTP/1.1 200'))).toHaveLength(4);
			expect(
				worker.logs.find(
					(l) =>
						l.msg === 'request refused' &&
						l.reason === 'too many connections wait for a worker copy',
				),
			).toMatchObject({ part: 'supervisor', limit: 4, from: '127.0.0.1' });
			expect(childrenOf(worker.child.pid!)).toEqual([copy]);
		} finally {
			process.kill(copy, 'SIGCONT');
		}
		expect(await worker.stop('SIGTERM')).toBe(0);
		worker = undefined;
	}, 120_000);

	it('socket activation as systemd does it (fd 3, LISTEN_FDS, LISTEN_PID): the whole worker SIGKILLed in the middle of a burst of 500 replies and started again after 1 s on the same socket loses none', async () => {
		const socket = heldSocket(rig.port);
		try {
			const config = rig.config(
				`${rig.dir}/activated.db`,
				{ spool: { dir: `${rig.dir}/spool-activated` } },
				'activated.json',
			);
			// LISTEN_PID is the pid of the process that reads it: the shell's, which exec keeps.
			const start = () =>
				WorkerProcess.started(
					spawn(
						'sh',
						[
							'-c',
							'LISTEN_PID=$$; export LISTEN_PID; exec "$@"',
							'sh',
							process.execPath,
							CLI,
							'worker',
							'--config',
							config,
						],
						{
							env: { ...process.env, ...rig.env, LISTEN_FDS: '1' },
							stdio: ['ignore', 'pipe', 'pipe', socket.fd],
						},
					),
				);
			worker = await start();
			expect(worker.logs.find((l) => l.msg === 'listening')).toMatchObject({
				socket: 'passed by systemd (LISTEN_FDS)',
				port: rig.port,
			});
			const burst = rig.burst(500);
			await sleep(150);
			await worker.stop('SIGKILL');
			await sleep(1000);
			worker = await start();
			const sids = await burst;
			await until(
				async () => (await rig.callbacksDone(sids)).pending === 0,
				30_000,
				'the sandbox to be done',
			);
			const calls = await rig.callbacksDone(sids);
			const refused = await refusedConnections(sids);
			const result = await rig.settle(sids, 90_000);
			console.log(
				`socket activation, SIGKILL and a restart after 1 s: ${calls.delivered} of 500 answered 200, ${calls.refused} lost, ${refused} connections refused, ${result.repeats} forwards repeated under their own identity`,
			);
			expect(calls).toEqual({ delivered: 500, refused: 0, pending: 0 });
			expect(refused).toBe(0);
			expect({ lost: result.lost.length, twice: result.twice }).toEqual({ lost: 0, twice: [] });
			expect(await worker.stop('SIGTERM')).toBe(0);
			worker = undefined;
		} finally {
			socket.close();
		}
	}, 240_000);
});

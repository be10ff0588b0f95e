import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/src';
import { CallbackCatcher } from '../../support/callbackCatcher';
import { cleanupAfterEach } from '../../support/cleanup';
import { storeIdle } from '../../support/storeIdle';
import {
	ensureBuilt,
	freePort,
	processAlive,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	writeConfig,
} from './harness';

const SECRET = 'reload-n8n-secret-0123456789';

const cleanup = cleanupAfterEach();

function files(folder: string): number {
	return existsSync(folder) ? readdirSync(folder).length : -1;
}

/**
 * `kill -HUP` reloads the config: the n8n trigger moved (a new workflow, a new secret),
 * the worker is told so by a HUP, and the next reply goes to the new URL, with the new
 * headers, once, and not to the old one; the process the user started keeps its pid.
 * What a reload cannot change is said at the reload, by name: settings the environment
 * supplies, and a spool folder that moved. The process the user started logs by the new
 * config's log settings too.
 */
describe('forward.n8n after kill -HUP', () => {
	it('a reply after the reload reaches the new URL only, once, with the new headers; same pid; what needs a restart is named', async () => {
		await ensureBuilt();
		const sandbox = await startSandbox({ port: 0, receiptDelayMs: 100 });
		cleanup.push(() => sandbox.close());
		const driver = new SandboxDriver(sandbox);
		const before = await CallbackCatcher.start();
		cleanup.push(() => before.close());
		const after = await CallbackCatcher.start();
		cleanup.push(() => after.close());
		const dir = tempDir();
		const port = await freePort();
		// The callback secret from the environment, as a systemd EnvironmentFile would give it.
		const settings = (n8n: unknown, more: Record<string, unknown> = {}) => ({
			db: `${dir}/worker.db`,
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
			outbox: { backoffMs: 50, maxBackoffMs: 200 },
			spool: { dir: `${dir}/spool-a` },
			forward: { n8n },
			...more,
		});
		const config = writeConfig(
			dir,
			settings({ url: `${before.url}/webhook/old/cloudtel?secret=old-secret`, events: ['reply'] }),
		);
		// CLOUDTEL_PUBLIC_URL is set but the file's publicUrl wins: it is not the environment's.
		const env = {
			CLOUDTEL_BASE_URL: sandbox.url,
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: SECRET,
			CLOUDTEL_PUBLIC_URL: 'http://elsewhere.example',
		};
		const worker = await WorkerProcess.start(config, env);
		cleanup.push(() => worker.stop('SIGKILL'));
		const pid = worker.child.pid!;
		const idle = () => storeIdle({ kind: 'sqlite', path: `${dir}/worker.db` });

		const base = `http://127.0.0.1:${port}/callbacks/${SECRET}`;
		const customer = '+61491570421';
		const sent = await driver.send({
			To: customer,
			Text: 'Reply to win',
			WebhookUri: `${base}/replies`,
		});
		const first = await driver.reply(customer, sent.From, 'before the reload');
		await until(
			() => before.requests.some((r) => r.headers['idempotency-key'] === `reply:${first}`),
			20_000,
			'the first reply at the old URL',
		);

		const moved = {
			url: `${after.url}/webhook/new/cloudtel?secret=new-secret`,
			headers: { 'X-CloudTel-Secret': 'new-header' },
			events: ['reply'],
		};
		writeConfig(dir, settings(moved));
		process.kill(pid, 'SIGHUP');
		await worker.waitFor((l) => l.msg === 'reload done', 60_000, 'the reload');
		const fromEnvironment = worker.logs.filter(
			(l) =>
				l.msg ===
				'reload: settings from the environment keep the values the worker was started with; a change to them needs a restart',
		);
		expect(fromEnvironment).toHaveLength(1);
		expect(fromEnvironment[0]).toMatchObject({ level: 'info', part: 'supervisor' });
		expect([...(fromEnvironment[0].variables as string[])].sort()).toEqual(
			expect.arrayContaining([
				'CLOUDTEL_ACCOUNT_SID',
				'CLOUDTEL_AUTH_TOKEN',
				'CLOUDTEL_BASE_URL',
				'CLOUDTEL_CALLBACK_SECRET',
			]),
		);
		expect(fromEnvironment[0].variables).not.toContain('CLOUDTEL_PUBLIC_URL');
		expect(worker.count((l) => l.msg.startsWith('reload: the spool folder changed'))).toBe(0);

		const second = await driver.reply(customer, sent.From, 'after the reload');
		await until(
			() => after.requests.some((r) => r.headers['idempotency-key'] === `reply:${second}`),
			20_000,
			'the second reply at the new URL',
		);
		// Nothing left to send: a repeat, or a copy to the old URL, would have arrived by now.
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');

		expect(before.requests.map((r) => r.headers['idempotency-key'])).toEqual([`reply:${first}`]);
		expect(after.requests.map((r) => r.headers['idempotency-key'])).toEqual([`reply:${second}`]);
		const [there] = after.requests;
		expect(there.path).toBe('/webhook/new/cloudtel');
		expect(there.query.secret).toBe('new-secret');
		expect(there.headers['x-cloudtel-secret']).toBe('new-header');
		expect(there.body.MessageSid).toBe(second);
		expect(processAlive(pid)).toBe(true);
		expect(worker.child.exitCode).toBeNull();
		// No secret of either config in the log, the new one included.
		expect(worker.text).not.toContain('new-secret');
		expect(worker.text).not.toContain('new-header');

		// A second reload: quieter logs, and the spool in another folder.
		const seen = worker.logs.length;
		writeConfig(dir, settings(moved, { log: { level: 'warn' }, spool: { dir: `${dir}/spool-b` } }));
		process.kill(pid, 'SIGHUP');
		const spoolMoved = await worker.waitFor(
			(l) =>
				l.msg ===
				'reload: the spool folder changed; callbacks the old copy cannot feed into the store stay in the old folder until a worker that uses it starts',
			20_000,
			'the spool folder named',
		);
		expect(spoolMoved).toMatchObject({
			level: 'warn',
			part: 'supervisor',
			from: `${dir}/spool-a`,
			to: `${dir}/spool-b`,
		});
		// The new copy has its spool in the new folder, and the old one has closed its own.
		await until(
			() => files(`${dir}/spool-b`) === 1 && files(`${dir}/spool-a`) === 0,
			30_000,
			'the hand-over',
		);
		const third = await driver.reply(customer, sent.From, 'after the second reload');
		await until(
			() => after.requests.some((r) => r.headers['idempotency-key'] === `reply:${third}`),
			20_000,
			'the third reply at the new URL',
		);
		await until(() => idle(), 20_000, 'the worker to have nothing left to send');
		expect(after.requests.map((r) => r.headers['idempotency-key'])).toEqual([
			`reply:${second}`,
			`reply:${third}`,
		]);
		// The process the user started follows the new level: none of its info lines (reloading, reload done).
		expect(
			worker.logs.slice(seen).filter((l) => l.part === 'supervisor' && l.level === 'info'),
		).toEqual([]);
		expect(processAlive(pid)).toBe(true);
		expect(await worker.stop('SIGTERM')).toBe(0);
	}, 120_000);
});

import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import { runCampaign } from '../../support/runCampaign';
import { cli } from '../worker/harness';
import { CallbackCatcher } from '../../support/callbackCatcher';
import {
	ensureBuilt,
	freePort,
	SandboxDriver,
	tempDir,
	until,
	WorkerProcess,
	workerOnSandbox,
	writeConfig,
} from './harness';

const SECRET = 'private-files-secret-0123';
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

let sandbox: RunningSandbox;

beforeAll(async () => {
	await ensureBuilt();
	// The umask most systems give: without care, every file would be -rw-r--r--.
	process.umask(0o022);
	sandbox = await startSandbox({ port: 0 });
}, 60_000);

afterAll(async () => {
	await sandbox?.close();
});

describe('files holding personal data are private', () => {
	it('campaign run creates the ledger and --out 0600; campaign report --html too', async () => {
		const dir = tempDir();
		writeFileSync(join(dir, 'list.csv'), 'Phone\n+61491570101\n+61491570102\n');
		const db = join(dir, 'l.db');
		const out = join(dir, 'out.csv');
		const run = await runCampaign(sandbox, {
			csv: join(dir, 'list.csv'),
			db,
			name: 'p',
			text: 'Hi',
			flags: ['--from', 'CloudTel', '--out', out],
		});
		expect(run.code, run.stderr).toBe(0);
		expect(mode(db)).toBe('600');
		expect(mode(out)).toBe('600');
		expect(run.stderr).not.toContain('can be read by others');

		const html = join(dir, 'report.html');
		// An older report, readable by all, is replaced by a private one.
		writeFileSync(html, 'old', { mode: 0o644 });
		const report = await cli(['campaign', 'report', '--db', db, '--name', 'p', '--html', html]);
		expect(report.code, report.stderr).toBe(0);
		expect(mode(html)).toBe('600');
	});

	it('the worker keeps its database, -wal and -shm 0600; an existing ledger readable by others is warned about once', async () => {
		const dir = tempDir();
		const port = await freePort();
		const config = writeConfig(dir, {
			provider: { baseUrl: sandbox.url },
			db: 'worker.db',
			server: { publicUrl: `http://127.0.0.1:${port}`, port, host: '127.0.0.1' },
		});
		const workerEnv = {
			CLOUDTEL_ACCOUNT_SID: sandbox.demo.AccountSid,
			CLOUDTEL_AUTH_TOKEN: sandbox.demo.AuthToken,
			CLOUDTEL_CALLBACK_SECRET: SECRET,
		};
		const db = join(dir, 'worker.db');
		let worker = await WorkerProcess.start(config, workerEnv);
		try {
			for (const file of [db, `${db}-wal`, `${db}-shm`]) {
				expect(existsSync(file), file).toBe(true);
				expect(mode(file), file).toBe('600');
			}
			expect(worker.text).not.toContain('can be read by others');
		} finally {
			await worker.stop();
		}

		chmodSync(db, 0o644);
		worker = await WorkerProcess.start(config, workerEnv);
		try {
			const warnings = worker.logs.filter(
				(l) => l.level === 'warn' && String(l.msg).includes('can be read by others'),
			);
			expect(warnings).toHaveLength(1);
			expect(warnings[0].msg).toContain(`${db} can be read by others than its owner (mode 644)`);
			// Left as its owner set it: a group may have been given it on purpose.
			expect(mode(db)).toBe('644');
		} finally {
			await worker.stop();
		}
	});

	it("a reply rule's POST headers (a receiver's credentials) are sent with every forward, and stored in none", async () => {
		const bearer = 'Bearer receiver-credential-0123456789';
		const catcher = await CallbackCatcher.start();
		const { dir, port, worker } = await workerOnSandbox(sandbox, SECRET, {
			replies: [
				{
					actions: [
						{ type: 'post', url: `${catcher.url}/hook`, headers: { authorization: bearer } },
					],
				},
			],
		});
		try {
			const driver = new SandboxDriver(sandbox);
			const m = await driver.send({
				To: '+61491570401',
				Text: 'Reply to win',
				WebhookUri: `http://127.0.0.1:${port}/callbacks/${SECRET}/replies`,
			});
			for (let i = 0; i < 5; i++) await driver.reply('+61491570401', m.From, `reply ${i}`);
			await until(() => catcher.requests.length >= 5, 10_000, 'five forwards');
			expect(catcher.requests.map((r) => r.headers.authorization)).toEqual(Array(5).fill(bearer));
			const db = join(dir, 'worker.db');
			for (const file of [db, `${db}-wal`])
				if (existsSync(file))
					expect(readFileSync(file).includes('receiver-credential'), file).toBe(false);
		} finally {
			await worker.stop();
			await catcher.close();
		}
	});
});

// `npm run dev` as the README tells users to run it: started (on a temp user folder, never the
// developer's test/e2e/.n8n/dev), used over HTTP as the editor does, stopped with Ctrl-C, and
// started again on the same folder.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { interrupt, listening, processesOf, startDev } from '../lib/devProcess.mjs';
import { freePort } from '../lib/n8n.mjs';
import { stop } from '../lib/procs.mjs';
import { nodeType } from '../lib/package.mjs';
import { CREDENTIAL_TYPE, cloudTel, linear } from '../lib/workflows.mjs';

export const title =
	'npm run dev: n8n with the nodes, the credential and the owner; Ctrl-C; the folder kept';

const CREDENTIAL_NAME = 'CloudTel sandbox (demo account)';

/** The editor's side of n8n's REST API, logged in with the banner's account. */
async function editor(banner) {
	const base = banner.n8nUrl;
	const headers = { 'content-type': 'application/json', 'browser-id': 'cloudtel-e2e-dev' };
	const login = await fetch(`${base}/rest/login`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ emailOrLdapLoginId: banner.email, password: banner.password }),
	});
	const answer = await login.text();
	assert.equal(login.status, 200, `log in as ${banner.email}: ${answer}`);
	headers.cookie = login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	const call = async (method, path, body) => {
		const res = await fetch(`${base}${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		assert.ok(res.ok, `${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
		const parsed = JSON.parse(text);
		// n8n's REST answers {data: ...}; /types/*.json are plain.
		return path.startsWith('/rest/') ? parsed.data : parsed;
	};
	return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) };
}

/** The dev credential as the editor opens it, and n8n's own test of it ("Retry"). */
async function devCredential(rest) {
	const listed = (await rest.get('/rest/credentials')).filter((c) => c.name === CREDENTIAL_NAME);
	assert.equal(listed.length, 1, `one "${CREDENTIAL_NAME}" credential, got ${listed.length}`);
	assert.equal(listed[0].type, CREDENTIAL_TYPE);
	const opened = await rest.get(`/rest/credentials/${listed[0].id}?includeData=true`);
	const tested = await rest.post('/rest/credentials/test', {
		credentials: { id: opened.id, name: opened.name, type: opened.type, data: opened.data },
	});
	return { ...opened, tested };
}

/**
 * The editor's "Execute workflow" on a saved workflow; resolves once its message reached the
 * sandbox (which started empty), with the execution's status.
 */
async function executeSaved(rest, install, id, banner) {
	// n8n 1.x takes the workflow itself; 2.x the trigger to start from.
	const body =
		install.major < 2
			? { workflowData: await rest.get(`/rest/workflows/${id}`) }
			: { triggerToStartFrom: { name: 'Start' } };
	const { executionId } = await rest.post(`/rest/workflows/${id}/run`, body);
	assert.ok(executionId, 'n8n started an execution');
	const until = Date.now() + 60_000;
	for (;;) {
		const execution = await rest.get(`/rest/executions/${executionId}`);
		if (execution.finished || ['success', 'error', 'crashed'].includes(execution.status)) {
			const messages = (
				await (await fetch(`${banner.messagesUrl}?PropertySid=${banner.PropertySid}`)).json()
			).Messages;
			return { status: execution.status, messages };
		}
		if (Date.now() > until)
			throw new Error(`execution ${executionId} not finished after 60 s: ${execution.status}`);
		await sleep(250);
	}
}

/** n8n logs every request it refuses ("400 Instance owner already setup"): dev.mjs makes none. */
function noRefusedRequests(dev) {
	const refused = dev.startup.split('\n').filter((line) => /^[45]\d\d /.test(line));
	assert.deepEqual(refused, [], 'n8n logged refused requests while dev.mjs set it up');
}

async function stopsCleanly(dev, folder, ports, how = {}) {
	const { code, signal, waitedMs } = await interrupt(dev, how);
	const open = [];
	for (const port of ports) if (await listening(port)) open.push(port);
	const left = processesOf(folder);
	// The test started them (through dev.mjs): none may outlive the run, failed or not.
	for (const { pid } of left) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// gone meanwhile
		}
	}
	assert.deepEqual(
		{ code, signal },
		{ code: 0, signal: null },
		`${how.signal ?? 'SIGINT'}: exit ${code ?? signal} after ${waitedMs} ms:\n${dev.output().slice(-1000)}`,
	);
	assert.deepEqual(open, [], 'ports still open after it exited');
	assert.deepEqual(
		left.map((p) => p.command),
		[],
		'n8n processes left behind',
	);
}

export async function run(ctx, test) {
	const folder = join(ctx.root, 'npm-run-dev');
	mkdirSync(folder, { recursive: true });
	const devEnv = async () => {
		const n8nPort = await freePort();
		let sandboxPort = await freePort();
		while (sandboxPort === n8nPort) sandboxPort = await freePort();
		return {
			CLOUDTEL_DEV_USER_FOLDER: folder,
			CLOUDTEL_DEV_RELEASE: ctx.release,
			CLOUDTEL_N8N_PORT: String(n8nPort),
			CLOUDTEL_SANDBOX_PORT: String(sandboxPort),
		};
	};
	let first;
	let saved;

	const up = await test(
		'starts on the ports asked for and prints where n8n, the login and the sandbox are',
		async () => {
			const env = await devEnv();
			first = { env, dev: await startDev(env) };
			const { banner } = first.dev;
			assert.equal(banner.n8nUrl, `http://127.0.0.1:${env.CLOUDTEL_N8N_PORT}`);
			assert.equal(banner.sandboxUrl, `http://127.0.0.1:${env.CLOUDTEL_SANDBOX_PORT}`);
			noRefusedRequests(first.dev);
			assert.ok(
				existsSync(join(folder, '.n8n', 'database.sqlite')),
				'n8n keeps its database in the folder asked for',
			);
			// What the Ctrl-C check looks for is there while it runs.
			assert.notDeepEqual(processesOf(folder), [], 'n8n runs in the folder asked for');
		},
		{ timeoutMs: 300_000 },
	);
	if (!up) return;
	const { banner } = first.dev;

	try {
		await test("the printed owner logs in; n8n knows the CloudTel nodes; the credential is the sandbox's demo account and passes n8n's test", async () => {
			const rest = await editor(banner);
			const types = (await rest.get('/types/nodes.json')).map((t) => t.name);
			for (const name of ['cloudTel', 'cloudTelTrigger', 'cloudTelCampaign'])
				assert.ok(types.includes(nodeType(name)), `${nodeType(name)} in n8n's node types`);
			const cred = await devCredential(rest);
			assert.equal(cred.data.baseUrl, banner.sandboxUrl);
			assert.equal(cred.data.accountSid, banner.AccountSid);
			assert.equal(cred.data.defaultPropertySid, banner.PropertySid);
			assert.equal(cred.tested.status, 'OK', JSON.stringify(cred.tested));
			const wf = linear(
				'Saved in the first npm run dev',
				cloudTel(
					'CloudTel',
					{
						resource: 'message',
						operation: 'send',
						propertySid: '',
						from: 'CloudTel',
						to: '+61412000401',
						text: 'hi',
					},
					{ credential: { id: cred.id, name: cred.name } },
				),
			);
			saved = await rest.post('/rest/workflows', {
				name: wf.name,
				nodes: wf.nodes,
				connections: wf.connections,
				settings: wf.settings,
				active: false,
			});
		});

		await test('the printed sandbox answers: its messages page, and the API for the printed demo account', async () => {
			const messages = await fetch(banner.messagesUrl);
			assert.equal(messages.status, 200);
			assert.ok(Array.isArray((await messages.json()).Messages));
			const auth = `Basic ${Buffer.from(`${banner.AccountSid}:${banner.AuthToken}`).toString('base64')}`;
			const logins = await fetch(`${banner.sandboxUrl}/v2/OnlineLogins`, {
				headers: { authorization: auth },
			});
			assert.equal(logins.status, 200, await logins.text());
		});
	} finally {
		await test('Ctrl-C stops it with exit code 0, its ports closed and no n8n process left', () =>
			stopsCleanly(first.dev, folder, [
				Number(first.env.CLOUDTEL_N8N_PORT),
				Number(first.env.CLOUDTEL_SANDBOX_PORT),
			]));
	}

	await test(
		"started again on the same folder with the sandbox's port taken: the saved workflow is there, the credential is the new sandbox's demo account on the port it fell back to, and the workflow, executed, sends through it; Ctrl-C twice leaves nothing either",
		async () => {
			const env = await devEnv();
			const taken = createServer();
			await new Promise((resolve) =>
				taken.listen(Number(env.CLOUDTEL_SANDBOX_PORT), '127.0.0.1', resolve),
			);
			let dev;
			try {
				dev = await startDev(env);
			} finally {
				taken.close();
			}
			try {
				const again = dev.banner;
				assert.notEqual(
					again.sandboxUrl,
					`http://127.0.0.1:${env.CLOUDTEL_SANDBOX_PORT}`,
					'a busy sandbox port falls back to a free one',
				);
				noRefusedRequests(dev);
				assert.notEqual(
					again.AccountSid,
					banner.AccountSid,
					'a new sandbox has a new demo account',
				);
				const rest = await editor(again);
				assert.ok(saved?.id, 'the first run saved a workflow');
				assert.equal((await rest.get(`/rest/workflows/${saved.id}`)).name, saved.name);
				const cred = await devCredential(rest);
				assert.equal(cred.data.baseUrl, again.sandboxUrl);
				assert.equal(cred.data.accountSid, again.AccountSid);
				assert.equal(cred.data.defaultPropertySid, again.PropertySid);
				assert.equal(cred.tested.status, 'OK', JSON.stringify(cred.tested));
				// The CloudTel node leaves its Property SID empty: it sends with the credential's default.
				const run = await executeSaved(rest, ctx.install, saved.id, again);
				assert.equal(run.status, 'success');
				assert.deepEqual(
					run.messages.map((m) => [m.To, m.Text]),
					[['+61412000401', 'hi']],
				);
			} finally {
				await stopsCleanly(
					dev,
					folder,
					[Number(env.CLOUDTEL_N8N_PORT), Number(new URL(dev.banner.sandboxUrl).port)],
					{ times: 2 },
				);
			}
		},
		{ timeoutMs: 300_000 },
	);

	await test('the terminal closed (SIGHUP) while n8n starts: it exits and leaves no n8n behind', async () => {
		const env = await devEnv();
		const dev = await startDev(env, { until: 'Starting n8n' });
		await stopsCleanly(
			dev,
			folder,
			[Number(env.CLOUDTEL_N8N_PORT), Number(env.CLOUDTEL_SANDBOX_PORT)],
			{ signal: 'SIGHUP' },
		);
	});

	await test('n8n dying on its own: it says so, naming the signal, and exits 1 with the sandbox closed', async () => {
		const env = await devEnv();
		const dev = await startDev(env);
		try {
			const n8nPid = processesOf(folder).find((p) => p.command.endsWith(' start'))?.pid;
			assert.ok(n8nPid, `the n8n server among ${JSON.stringify(processesOf(folder))}`);
			const exited = new Promise((resolve) =>
				dev.child.once('exit', (code, signal) => resolve({ code, signal })),
			);
			process.kill(n8nPid, 'SIGKILL');
			assert.deepEqual(await exited, { code: 1, signal: null });
			const said = `n8n exited (SIGKILL); see ${join(folder, 'n8n.log')}`;
			assert.ok(dev.output().includes(said), `"${said}" in:\n${dev.output().slice(-500)}`);
			assert.equal(await listening(Number(env.CLOUDTEL_SANDBOX_PORT)), false, 'the sandbox closed');
		} finally {
			await stop(dev.child, 2000);
			for (const { pid } of processesOf(folder)) process.kill(pid, 'SIGKILL');
		}
	});
}

// CloudTel Campaign Start when things go wrong, in real n8n against a real `cloudtel worker`
// and the sandbox. n8n is killed (SIGKILL) half-way through handing two pages to the worker
// (a proxy in front of the worker holds page 2 until the kill), and the workflow run again
// completes the campaign with every valid recipient sent exactly one message. With the node's
// error output on, the worker's 409 for a name used with other settings and its 401 for a
// wrong token each arrive there as one item saying why, nothing on the main output, nothing sent.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCloudtelWorker, workerCredential } from '../lib/cloudtelWorker.mjs';
import { startHoldingProxy } from '../lib/holdingProxy.mjs';
import {
	chain,
	cloudTelCampaign,
	code,
	executionError,
	manualTrigger,
	nodeError,
	outputOf,
	workflow,
} from '../lib/workflows.mjs';
import { waitFor } from '../lib/waitFor.mjs';

export const title =
	'CloudTel Campaign: n8n killed half-way through a hand-over and run again; refusals on the error output';

// Pages hold 10,000 recipients: two pages, the second a short one.
const PAGE = 10_000;
const COUNT = PAGE + 250;
// One invalid number on each page.
const INVALID_AT = [11, PAGE + 20];
const VALID = COUNT - INVALID_AT.length;
const CAMPAIGN = 'CloudTel Campaign';
const TEXT = 'Hi {{first_name}}, one message each.';
const numberOf = (i) => `+61413${String(i).padStart(6, '0')}`;

/** The Code node's JavaScript: `count` contacts, those at `invalid` with no number at all. */
function contactsJs(count, invalid = []) {
	return `const out = [];
for (let i = 0; i < ${count}; i++) out.push({ json: { phone: '+61413' + String(i).padStart(6, '0'), first_name: 'Contact' + i } });
for (const i of ${JSON.stringify(invalid)}) out[i].json.phone = 'no number ' + i;
return out;`;
}

export async function run(ctx, test) {
	const { sandbox } = ctx;
	const dir = join(ctx.root, 'campaign-hand-over');
	mkdirSync(dir, { recursive: true });
	const tag = `${ctx.install.major}-${Date.now().toString(36)}`;
	const cred = (id) => ({ id: `${id}${ctx.install.major}`, name: `${id} ${ctx.install.major}` });
	const viaProxy = cred('cloudtelWorkerViaProxy');
	const direct = cred('cloudtelWorkerDirect');
	const wrongToken = cred('cloudtelWorkerWrongToken');
	let worker;
	let proxy;
	let cli;

	/** Manual Trigger -> Code (the contacts) -> CloudTel Campaign Start. */
	const startWorkflow = (
		name,
		{ count, invalid, credential, options = {}, text = TEXT, onError },
	) => {
		const campaign = cloudTelCampaign(
			CAMPAIGN,
			{
				operation: 'start',
				campaignName: name,
				mapping: 'autoMap',
				propertySid: sandbox.demo.PropertySid,
				text,
				options: { toColumn: 'phone', from: 'CloudTel', receipts: false, rate: 5000, ...options },
			},
			{ credential, onError },
		);
		const nodes = [manualTrigger(), code('Contacts', contactsJs(count, invalid)), campaign];
		return workflow(`campaign ${name}`, nodes, chain(...nodes));
	};
	const messagesOf = async (name) =>
		(await sandbox.control.messages({ PropertySid: sandbox.demo.PropertySid })).filter((m) =>
			String(m.ExternalId ?? '').startsWith(`${name}:`),
		);
	const statusOf = async (name) => {
		const { status, body } = await worker.api('GET', `/api/campaigns/${name}`);
		assert.equal(status, 200, JSON.stringify(body));
		return body.campaign;
	};

	const up = await test(
		'a cloudtel worker with its campaign API, and a proxy in front of it that can hold a request',
		async () => {
			worker = await startCloudtelWorker({ dir, sandbox });
			ctx.track({ stopServer: () => worker.stop() });
			proxy = await startHoldingProxy(worker.url, {
				hold: (method, path) => method === 'PUT' && /\/pages\/2$/.test(path),
			});
			ctx.track({ stopServer: () => proxy.close() });
			// The killed run is an `n8n execute` beside the line's n8n (killing that n8n would end
			// every scenario after this one), of what was saved in it.
			cli = await ctx.cli();
			await ctx.n8n.importCredentials([
				workerCredential(viaProxy.id, { ...worker, url: proxy.url }, viaProxy.name),
				workerCredential(direct.id, worker, direct.name),
				{
					...workerCredential(wrongToken.id, worker, wrongToken.name),
					data: { url: worker.url, apiToken: 'not-the-worker-api-token' },
				},
			]);
		},
		{ timeoutMs: 120_000 },
	);
	if (!up) return;

	const killed = `killed-${tag}`;
	let killedWf;
	await test(
		`n8n killed (SIGKILL) while Start hands page 2 of 2 to the worker: nothing sent, the campaign still a draft`,
		async () => {
			killedWf = startWorkflow(killed, { count: COUNT, invalid: INVALID_AT, credential: viaProxy });
			await ctx.n8n.importWorkflow(killedWf);
			let n8nProcess;
			const execution = cli
				.execute(killedWf.id, { timeoutMs: 300_000, onSpawn: (child) => (n8nProcess = child) })
				.then(
					(ran) => ({ ran }),
					(error) => ({ error }),
				);
			const killN8n = async () => {
				if (n8nProcess.exitCode !== null || n8nProcess.signalCode !== null)
					return n8nProcess.signalCode;
				const exited = new Promise((resolve) =>
					n8nProcess.once('exit', (code, signal) => resolve(signal)),
				);
				process.kill(n8nProcess.pid, 'SIGKILL');
				const signal = await exited;
				// Its task runners, if any, go too (they would die with their broker anyway).
				try {
					process.kill(-n8nProcess.pid, 'SIGKILL');
				} catch {
					// none left
				}
				return signal;
			};
			let soFar;
			try {
				// Page 2 has reached the proxy: settings and page 1 are with the worker, start is not.
				const first = await Promise.race([proxy.held.then((page2) => ({ page2 })), execution]);
				if (!first.page2)
					assert.fail(
						`the run ended before page 2 was handed over: ${first.ran?.status ?? first.error?.message}`,
					);
				soFar = proxy.log
					.filter((e) => e.path.startsWith(`/api/campaigns/${killed}`))
					.map(
						(e) =>
							`${e.method} ${e.path.replace(`/api/campaigns/${killed}`, '')} ${e.status ?? 'held'}`,
					);
				assert.equal(await killN8n(), 'SIGKILL');
			} finally {
				// Whatever failed, no n8n is left holding the request (or the task broker's port).
				if (n8nProcess) await killN8n();
			}
			assert.deepEqual(
				soFar,
				['PUT  201', 'PUT /pages/1 200', 'PUT /pages/2 held'],
				'the hand-over when n8n was killed',
			);
			const { ran, error } = await execution;
			assert.equal(ran, undefined, 'the killed run printed no execution');
			assert.equal(error.result?.signal, 'SIGKILL', error.message);
			await Promise.race([
				proxy.clientGone,
				sleep(10_000).then(() =>
					assert.fail("n8n's connection to the worker stayed open after the kill"),
				),
			]);
			// Page 2's bytes had left n8n: the worker takes it, and its answer reaches nobody.
			const stored = await proxy.release();
			assert.equal(stored.status, 200, JSON.stringify(stored.body));
			const status = await statusOf(killed);
			assert.equal(status.state, 'draft');
			assert.equal(status.counts.recipients, COUNT);
			await sleep(1000);
			assert.equal((await messagesOf(killed)).length, 0, 'nothing sent');
		},
		{ timeoutMs: 360_000 },
	);

	await test(
		'the workflow run again completes the hand-over: one item, every recipient handed over once',
		async () => {
			const before = proxy.log.length;
			// Run again as a user would after the crash: in the editor of the running n8n.
			const execution = await ctx.n8n.execute(killedWf.id, { timeoutMs: 300_000 });
			assert.equal(
				execution.status,
				'success',
				JSON.stringify(nodeError(execution, CAMPAIGN) ?? executionError(execution))?.slice(0, 2000),
			);
			const out = outputOf(execution, CAMPAIGN).map((i) => i.json);
			assert.equal(out.length, 1, 'one item');
			const [started] = out;
			assert.equal(started.campaign, killed);
			assert.equal(started.alreadyStarted, false);
			assert.equal(started.handedOver, COUNT);
			assert.equal(started.pages, 2);
			assert.ok(['sending', 'finished'].includes(started.state), started.state);
			assert.equal(
				started.counts.recipients,
				COUNT,
				'the pages stored before the kill were not added again',
			);
			// What the run asked of the worker: the same settings and pages (kept as they were), then start.
			assert.deepEqual(
				proxy.log
					.slice(before)
					.map(
						(e) =>
							`${e.method} ${e.path.replace(`/api/campaigns/${killed}`, '')} ${e.status}${e.body?.unchanged ? ' unchanged' : ''}`,
					),
				['PUT  200', 'PUT /pages/1 200 unchanged', 'PUT /pages/2 200 unchanged', 'POST /start 202'],
			);
		},
		{ timeoutMs: 360_000 },
	);

	await test(
		'every valid recipient got exactly one message, none twice, the invalid ones none',
		async () => {
			const status = await waitFor(
				'the campaign to finish',
				async () => {
					const now = await statusOf(killed);
					return ['finished', 'cancelled', 'failed'].includes(now.state) && now;
				},
				{ timeoutMs: 180_000, intervalMs: 1000 },
			);
			assert.equal(status.state, 'finished', JSON.stringify(status));
			// The sandbox's messages first: what the recipients got.
			const messages = await messagesOf(killed);
			const numbers = messages.map((m) => m.To);
			assert.equal(
				new Set(numbers).size,
				numbers.length,
				`nobody twice (${numbers.length - new Set(numbers).size} repeats)`,
			);
			const expected = [];
			for (let i = 0; i < COUNT; i++) if (!INVALID_AT.includes(i)) expected.push(numberOf(i));
			assert.deepEqual([...numbers].sort(), expected.sort(), 'exactly the valid recipients');
			for (const i of [0, PAGE - 1, PAGE, COUNT - 1]) {
				assert.equal(
					messages.find((m) => m.To === numberOf(i)).Text,
					`Hi Contact${i}, one message each.`,
					`recipient ${i}`,
				);
			}
			assert.deepEqual(
				[status.counts.recipients, status.counts.accepted, status.counts.invalid],
				[COUNT, VALID, INVALID_AT.length],
				"the worker's counts",
			);
		},
		{ timeoutMs: 240_000 },
	);

	/** Runs Start with the error output on; returns the main and error outputs' items. */
	const startWithErrorOutput = async (name, credential, settings = {}) => {
		const wf = startWorkflow(name, {
			count: 3,
			credential,
			onError: 'continueErrorOutput',
			...settings,
		});
		await ctx.n8n.importWorkflow(wf);
		const execution = await ctx.n8n.execute(wf.id, { timeoutMs: 180_000 });
		assert.equal(
			execution.status,
			'success',
			JSON.stringify(nodeError(execution, CAMPAIGN) ?? executionError(execution))?.slice(0, 2000),
		);
		return {
			main: outputOf(execution, CAMPAIGN, 0) ?? [],
			errors: outputOf(execution, CAMPAIGN, 1) ?? [],
		};
	};

	/**
	 * Checks a refused Start's outputs: nothing on the main output, one item on the error output,
	 * with the worker's HTTP status and error code. Returns that item's json, and `said`: it as
	 * text, for the messages of the caller's further checks.
	 */
	const refusalItem = ({ main, errors }, httpCode, errorCode) => {
		assert.equal(main.length, 0, `main output: ${JSON.stringify(main).slice(0, 500)}`);
		assert.equal(errors.length, 1, `error output: ${JSON.stringify(errors).slice(0, 1000)}`);
		const [{ json }] = errors;
		const said = JSON.stringify(json);
		assert.equal(json.HttpCode, httpCode, said);
		assert.equal(json.ErrorCode, errorCode, said);
		return { json, said };
	};

	await test(
		'error output: a campaign name used before with other settings gives one item naming the differences (409); main output empty, nothing sent',
		async () => {
			const name = `taken-${tag}`;
			const old = {
				property: sandbox.demo.PropertySid,
				text: 'An older text',
				from: 'CloudTel',
				toColumn: 'phone',
				receipts: false,
				rate: 50,
			};
			const made = await worker.api('PUT', `/api/campaigns/${name}`, old);
			assert.equal(made.status, 201, JSON.stringify(made.body));
			const { json, said } = refusalItem(await startWithErrorOutput(name, direct), 409, 'conflict');
			assert.equal(
				json.Message,
				`CloudTel worker: campaign "${name}" exists with other settings: text, rate`,
				said,
			);
			assert.deepEqual(json.Differences, [
				{ setting: 'text', stored: 'An older text', given: TEXT },
				{ setting: 'rate', stored: 50, given: 5000 },
			]);
			assert.match(
				json.Description,
				/text: stored "An older text", given "Hi \{\{first_name\}\}, one message each\."/,
				said,
			);
			assert.match(json.Description, /rate: stored 50, given 5000/, said);
			const status = await statusOf(name);
			assert.deepEqual(
				[status.state, status.counts.recipients, status.settings.text, status.settings.rate],
				['draft', 0, 'An older text', 50],
				'the campaign as it was',
			);
			assert.equal((await messagesOf(name)).length, 0, 'nothing sent');
		},
		{ timeoutMs: 240_000 },
	);

	await test(
		'error output: a wrong API token gives one item naming the 401; main output empty, nothing sent',
		async () => {
			const name = `token-${tag}`;
			const { json, said } = refusalItem(
				await startWithErrorOutput(name, wrongToken),
				401,
				'unauthorized',
			);
			assert.match(json.Description, /API Token of the CloudTel Worker API credential/, said);
			assert.equal(
				(await worker.api('GET', `/api/campaigns/${name}`)).status,
				404,
				'no campaign made',
			);
			assert.equal((await messagesOf(name)).length, 0, 'nothing sent');
		},
		{ timeoutMs: 240_000 },
	);

	await proxy.close().catch(() => {});
	await worker.stop().catch(() => {});
}

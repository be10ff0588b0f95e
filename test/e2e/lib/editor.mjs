// One long-running `n8n start` per n8n line, driven as the editor drives it: the owner logged
// in, workflows and credentials saved through the REST API, workflows run with
// `POST /rest/workflows/:id/run`, executions read back through the public API. Starting n8n
// once instead of an `n8n execute` per step is what keeps the e2e run short.
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiKey, publicApi, setupOwner, testCredential } from './rest.mjs';

const BROWSER_ID = 'cloudtel-e2e';

export class Editor {
	/** @param server a started N8n (see n8n.mjs) */
	constructor(server) {
		this.server = server;
		this.install = server.install;
		this.userFolder = server.userFolder;
		this.url = server.url;
		// n8n gives saved credentials ids of its own: a workflow built with the id it was
		// imported under is saved with n8n's.
		this.credentialIds = new Map();
	}

	/** Sets up the owner (or logs in) and makes a public-API key. */
	async login() {
		this.cookie = await setupOwner(this.url);
		this.api = publicApi(this.url, await createApiKey(this.url, this.cookie));
		return this;
	}

	async call(method, path, body) {
		const headers = {
			'content-type': 'application/json',
			'browser-id': BROWSER_ID,
			cookie: this.cookie,
		};
		const res = await fetch(`${this.url}${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
		return JSON.parse(text).data;
	}

	/** Saves credentials ({id, name, type, data}); their `id` becomes n8n's (and is mapped). */
	async importCredentials(credentials) {
		for (const credential of credentials) {
			const saved = await this.call('POST', '/rest/credentials', {
				name: credential.name,
				type: credential.type,
				data: credential.data,
			});
			this.credentialIds.set(credential.id, saved.id);
		}
	}

	/** Saves a workflow; its `id` becomes the one n8n gave it, which is also returned. */
	async importWorkflow(workflow) {
		const nodes = workflow.nodes.map((node) => {
			if (!node.credentials) return node;
			const credentials = {};
			for (const [type, ref] of Object.entries(node.credentials))
				credentials[type] = { ...ref, id: this.credentialIds.get(ref.id) ?? ref.id };
			return { ...node, credentials };
		});
		const { name, connections, settings, pinData } = workflow;
		const saved = await this.call('POST', '/rest/workflows', {
			name,
			nodes,
			connections,
			settings,
			pinData,
			active: false,
		});
		workflow.id = saved.id;
		workflow.versionId = saved.versionId;
		return saved.id;
	}

	/** Publishes (activates) a workflow: its webhooks listen from now on. */
	async publish(id) {
		await this.api.post(`/workflows/${id}/activate`);
	}

	async unpublish(id) {
		await this.api.post(`/workflows/${id}/deactivate`);
	}

	/**
	 * Runs a saved workflow as the editor's "Execute workflow" does and returns the finished
	 * execution ({data: {resultData}}, status), a failed one too (status "error").
	 */
	async execute(id, { timeoutMs = 300_000, trigger = 'Start' } = {}) {
		// n8n 1.x takes the workflow itself; 2.x the trigger to start from.
		const body =
			this.install.major < 2
				? { workflowData: await this.call('GET', `/rest/workflows/${id}`) }
				: { triggerToStartFrom: { name: trigger } };
		const { executionId } = await this.call('POST', `/rest/workflows/${id}/run`, body);
		if (!executionId) throw new Error(`n8n started no execution of workflow ${id}`);
		const until = Date.now() + timeoutMs;
		for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
			const execution = await this.api
				.get(`/executions/${executionId}?includeData=true`)
				.catch((error) => {
					// Saved once it has started: a 404 before that is "not yet".
					if (/HTTP 404/.test(error.message)) return undefined;
					throw error;
				});
			if (
				execution &&
				(execution.finished ||
					['success', 'error', 'crashed', 'canceled'].includes(execution.status))
			)
				return execution;
			if (Date.now() > until)
				throw new Error(
					`execution ${executionId} of workflow ${id} not finished after ${timeoutMs} ms (${execution?.status})`,
				);
			await sleep(wait);
		}
	}

	/** n8n's own credential test (the editor's Save / Retry) for credential data. */
	testCredential(credential) {
		return testCredential(this.url, this.cookie, {
			...credential,
			id: this.credentialIds.get(credential.id) ?? credential.id,
		});
	}

	/** Stops n8n and starts it again on the same folder: the session and the API key stay valid. */
	async stop() {
		await this.server.stopServer();
	}

	async start() {
		await this.server.start();
	}
}

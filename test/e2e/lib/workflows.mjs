// Workflows as data, built in code: nodes, a linear or branched wiring, the credential link.
import { randomBytes, randomUUID } from 'node:crypto';
import { nodeType } from './package.mjs';

export const CREDENTIAL_TYPE = 'cloudTelApi';

/** n8n workflow ids are 1..21 characters; a random one per build keeps imports independent. */
function workflowId() {
	return randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 16);
}

export function workflow(name, nodes, connections = {}, settings = {}) {
	return {
		id: workflowId(),
		name,
		active: false,
		nodes: nodes.map((n, i) => ({ ...n, position: n.position ?? [i * 240, 0] })),
		connections,
		settings: { executionOrder: 'v1', saveManualExecutions: true, ...settings },
		pinData: {},
	};
}

export function node(name, type, typeVersion, parameters = {}, extra = {}) {
	return { id: randomUUID(), name, type, typeVersion, parameters, ...extra };
}

export const manualTrigger = (name = 'Start') => node(name, 'n8n-nodes-base.manualTrigger', 1);

/** A Code node running once for all items; `js` returns the items. */
export const code = (name, js) =>
	node(name, 'n8n-nodes-base.code', 2, {
		mode: 'runOnceForAllItems',
		language: 'javaScript',
		jsCode: js,
	});

/** A Code node that emits `items` (plain JSON objects) as its output. */
export const items = (name, list) =>
	code(name, `return ${JSON.stringify(list)}.map((json) => ({ json }));`);

/**
 * The CloudTel node. `credential` is {id, name} of an imported cloudTelApi credential;
 * `onError` 'continueErrorOutput' gives it a second (error) output.
 */
export function cloudTel(
	name,
	parameters,
	{ credential, typeVersion = 1, onError, extra = {} } = {},
) {
	return node(name, nodeType('cloudTel'), typeVersion, parameters, {
		credentials: { [CREDENTIAL_TYPE]: credential },
		...(onError ? { onError } : {}),
		...extra,
	});
}

/** The CloudTel Campaign node; `credential` is {id, name} of an imported cloudTelWorkerApi credential. */
export function cloudTelCampaign(name, parameters, { credential, onError } = {}) {
	return node(name, nodeType('cloudTelCampaign'), 1, parameters, {
		credentials: { cloudTelWorkerApi: credential },
		...(onError ? { onError } : {}),
	});
}

export function cloudTelTrigger(name, parameters, { credential, webhookId, typeVersion = 1 } = {}) {
	return node(name, nodeType('cloudTelTrigger'), typeVersion, parameters, {
		webhookId: webhookId ?? randomUUID(),
		...(credential ? { credentials: { [CREDENTIAL_TYPE]: credential } } : {}),
	});
}

/** Wires nodes one after another through their first (main) output. */
export function chain(...nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

/** A linear workflow: a Manual Trigger, then `nodes` in order. */
export function linear(name, ...nodes) {
	const all = [manualTrigger(), ...nodes];
	return workflow(name, all, chain(...all));
}

export function credential(id, baseUrl, demo, name = 'CloudTel sandbox') {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: { baseUrl, accountSid: demo.AccountSid, authToken: demo.AuthToken },
	};
}

/**
 * The credential `npm run dev` puts in n8n: the sandbox's demo account, with its property
 * as the Default Property SID, so a CloudTel node sends with its own Property SID left empty.
 */
export function devCredential(baseUrl, demo, id = 'cloudtelSandboxDev') {
	const made = credential(id, baseUrl, demo, 'CloudTel sandbox (demo account)');
	return { ...made, data: { ...made.data, defaultPropertySid: demo.PropertySid } };
}

/** The items a node emitted on `output` (0 = main, 1 = error output) in its last run. */
export function outputOf(execution, nodeName, output = 0, run = -1) {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	if (!runs?.length) return undefined;
	const entry = runs.at(run);
	return entry?.data?.main?.[output] ?? [];
}

export function nodeError(execution, nodeName) {
	const runs = execution?.data?.resultData?.runData?.[nodeName];
	return runs?.at(-1)?.error;
}

export function executionError(execution) {
	return execution?.data?.resultData?.error;
}

// A stand-in for the parts of n8n's execution context the CloudTel nodes call, and
// nothing else. HTTP is real: httpRequestWithAuthentication applies the credential's own
// `authenticate` and sends the request with fetch, as n8n's helper does with axios.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { CloudTelApi } from '../../../credentials/CloudTelApi.credentials';
import { CloudTel } from '../../../nodes/CloudTel/CloudTel.node';

export interface Credentials {
	baseUrl: string;
	accountSid: string;
	authToken: string;
	defaultPropertySid?: string;
}

/** A parameter value, or a function of the item standing in for an n8n expression. */
export type Param = unknown | ((itemIndex: number, item: INodeExecutionData) => unknown);

export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	/** Date.now() as the request left and as its answer came. */
	startedAt: number;
	answeredAt: number;
	/** The answer's Retry-After header, if any. */
	retryAfter?: string;
}

export interface ExecuteOptions {
	credentials: Credentials;
	params: Record<string, Param>;
	items?: INodeExecutionData[];
	/** n8n's node setting "On Error"; both continue modes make continueOnFail() true. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	timezone?: string;
	/** The node's version as saved in the workflow (1, the first, unless given). */
	typeVersion?: number;
	/** The node's type: n8n runs a node an AI agent uses as a tool as `<type>Tool`. */
	type?: string;
}

const NODE = {
	id: 'node-1',
	name: 'CloudTel',
	type: 'n8n-nodes-cloudtel.cloudTel',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

const PROPERTIES = new CloudTel().description.properties;

function asRawParameters(params: Record<string, Param>): IDataObject {
	const out: IDataObject = {};
	for (const [name, value] of Object.entries(params))
		out[name] = (typeof value === 'function' ? '={{ per item }}' : value) as IDataObject[string];
	return out;
}

/** Whether a `@version` condition of displayOptions holds: a listed version, or n8n's `{ _cnd: { gte } }`. */
function versionShown(values: unknown[] | undefined, typeVersion: number): boolean {
	if (!values) return true;
	return values.some((v) =>
		typeof v === 'number'
			? v === typeVersion
			: typeVersion >= ((v as { _cnd?: { gte?: number } })._cnd?.gte ?? Infinity),
	);
}

/** Like n8n, an unset parameter reads as the default of the property shown for this resource, operation and node version. */
function defaultOf(params: Record<string, Param>, name: string, typeVersion: number): unknown {
	const shown = PROPERTIES.find((p) => {
		if (p.name !== name) return false;
		const show = p.displayOptions?.show ?? {};
		return (
			['resource', 'operation'].every(
				(key) => !show[key] || (show[key] as unknown[]).includes(params[key]),
			) && versionShown(show['@version'] as unknown[] | undefined, typeVersion)
		);
	});
	return shown?.default;
}

function lookup(params: Record<string, Param>, name: string): unknown {
	if (name in params) return params[name];
	const [head, ...rest] = name.split('.');
	let value: unknown = params[head];
	for (const key of rest)
		value =
			value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
	return value;
}

/** n8n's HTTP helper, reduced to the options the nodes use. */
async function httpRequest(
	credentials: Credentials,
	options: IHttpRequestOptions,
	log: SentRequest[],
): Promise<unknown> {
	const signed = await new CloudTelApi().authenticate(
		credentials as unknown as ICredentialDataDecryptedObject,
		options,
	);
	const headers = { ...(signed.headers as Record<string, string>) };
	const body =
		signed.body === undefined
			? undefined
			: typeof signed.body === 'string'
				? signed.body
				: JSON.stringify(signed.body);
	const startedAt = Date.now();
	const response = await fetch(signed.url, { method: signed.method ?? 'GET', headers, body });
	const answeredAt = Date.now();
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = text === '' ? '' : JSON.parse(text);
	} catch {
		// Not JSON: n8n's helper keeps the text as well.
	}
	log.push({
		method: signed.method ?? 'GET',
		url: signed.url,
		headers,
		body: body === undefined ? undefined : JSON.parse(body),
		status: response.status,
		startedAt,
		answeredAt,
		retryAfter: response.headers.get('retry-after') ?? undefined,
	});
	if (!signed.ignoreHttpStatusErrors && response.status >= 400) {
		throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
			httpCode: String(response.status),
			response: { status: response.status, data: parsed },
		});
	}
	if (!signed.returnFullResponse) return parsed;
	return {
		statusCode: response.status,
		statusMessage: response.statusText,
		headers: Object.fromEntries([...(response.headers as unknown as Iterable<[string, string]>)]),
		body: parsed,
	};
}

export function executeContext(
	options: ExecuteOptions,
): IExecuteFunctions & { sent: SentRequest[]; hints: NodeExecutionHint[] } {
	const items = options.items ?? [{ json: {} }];
	const typeVersion = options.typeVersion ?? NODE.typeVersion;
	const sent: SentRequest[] = [];
	const hints: NodeExecutionHint[] = [];
	const ctx = {
		sent,
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getInputData: () => items,
		// As in n8n, the node's raw parameters: a per-item function stands for an expression.
		getNode: () => ({
			...NODE,
			typeVersion,
			type: options.type ?? NODE.type,
			parameters: asRawParameters(options.params),
			onError: options.onError,
		}),
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () =>
			options.onError === 'continueRegularOutput' || options.onError === 'continueErrorOutput',
		getCredentials: async () => ({ ...options.credentials }),
		getNodeParameter(
			name: string,
			itemIndex: number,
			fallback?: unknown,
			opts?: { extractValue?: boolean },
		) {
			let value = lookup(options.params, name);
			if (typeof value === 'function') value = value(itemIndex, items[itemIndex]);
			// As in n8n, which fills in the defaults of the parameters shown before the node runs.
			if (value === undefined) value = defaultOf(options.params, name, typeVersion);
			if (value === undefined && arguments.length >= 3) value = fallback;
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			if (opts?.extractValue && value && typeof value === 'object' && '__rl' in value)
				return (value as unknown as { value: unknown }).value;
			return value;
		},
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) =>
				await httpRequest(options.credentials, request, sent),
		},
	};
	return ctx as unknown as IExecuteFunctions & { sent: SentRequest[]; hints: NodeExecutionHint[] };
}

/**
 * What n8n's WorkflowExecute.handleNodeErrorOutput does with "On Error: Continue (using
 * error output)": items carrying `error` (or a json of only error/message/details) move
 * to a second output.
 */
export function splitErrorOutput(output: INodeExecutionData[]): {
	success: INodeExecutionData[];
	error: INodeExecutionData[];
} {
	const isError = (item: INodeExecutionData) =>
		Boolean(item.error) ||
		(Boolean(item.json.error) &&
			Object.keys(item.json).every((k) => ['error', 'message', 'details'].includes(k)));
	return { success: output.filter((i) => !isError(i)), error: output.filter(isError) };
}

/**
 * What a user of n8n 2.40 sees of a node's output (WorkflowExecute, as read in n8n-core
 * 2.40's workflow-execute.js): with an error output, each item carrying `error` is copied
 * into it with its paired input item's json under its own (`{...item, json: {...input,
 * ...item.json}}`); then every item still carrying `error` has its json replaced by
 * `{error: message}` (normalizeNodeErrors). Also whether Retry On Fail would run the node
 * again: when the first item's `json.error` is set.
 */
export function asN8nShows(
	output: INodeExecutionData[],
	input: INodeExecutionData[],
	onError?: ExecuteOptions['onError'],
): { main: INodeExecutionData[]; error: INodeExecutionData[]; wouldRetry: boolean } {
	const wouldRetry = ![undefined, null, false].includes(output[0]?.json?.error as never);
	let main = output;
	let error: INodeExecutionData[] = [];
	if (onError === 'continueErrorOutput') {
		const split = splitErrorOutput(output);
		main = split.success;
		error = split.error.map((item) => {
			const paired = item.pairedItem as { item: number } | undefined;
			const from = paired === undefined ? undefined : input[paired.item];
			return from === undefined ? item : { ...item, json: { ...from.json, ...item.json } };
		});
	}
	const normalize = (item: INodeExecutionData): INodeExecutionData =>
		item.error !== undefined ? { ...item, json: { error: item.error.message } } : item;
	return { main: main.map(normalize), error: error.map(normalize), wouldRetry };
}

export interface WebhookCall {
	method: string;
	status: number;
	body: unknown;
	/** Present when the node started an execution. */
	workflowData?: INodeExecutionData[][];
}

export interface WebhookServer {
	url: string;
	calls: WebhookCall[];
	/** The workflow's static data, as n8n would save it after each request. */
	staticData: IDataObject;
	close(): Promise<void>;
}

type WebhookNode = { webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> };

function readBody(req: IncomingMessage): Promise<unknown> {
	return new Promise((resolve) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			if (text === '') return resolve({});
			// n8n parses JSON bodies; anything else reaches the node as it came.
			if ((req.headers['content-type'] ?? '').includes('json')) {
				try {
					return resolve(JSON.parse(text));
				} catch {
					return resolve(text);
				}
			}
			resolve(text);
		});
	});
}

/**
 * Serves a trigger node's webhook over real HTTP, the way n8n's webhook server calls
 * `webhook()`: with the request, a response the node may write to, its parameters and
 * the workflow's static data; answers 200 "Workflow was started" when the node leaves the
 * response to n8n (responseMode onReceived).
 */
export async function webhookServer(
	node: WebhookNode,
	params: Record<string, unknown>,
): Promise<WebhookServer> {
	const calls: WebhookCall[] = [];
	const staticData: IDataObject = {};
	// Each server stands for a workflow of its own.
	const workflow = { id: `wf-${Math.random().toString(36).slice(2)}` };
	const server: Server = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const query: IDataObject = {};
		for (const [k, v] of url.searchParams) query[k] = v;
		const body = await readBody(req);
		let status = 200;
		let sentBody: unknown;
		const response = {
			status(code: number) {
				status = code;
				return response;
			},
			json(data: unknown) {
				sentBody = data;
				res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
				return response;
			},
		};
		const ctx = {
			getRequestObject: () => ({ method: req.method, query, body, headers: req.headers }),
			getResponseObject: () => response,
			getQueryData: () => query,
			getBodyData: () => body,
			getHeaderData: () => req.headers,
			getNode: () => ({
				...NODE,
				name: 'CloudTel Trigger',
				type: 'n8n-nodes-cloudtel.cloudTelTrigger',
			}),
			getWorkflowStaticData: () => staticData,
			getWorkflow: () => workflow,
			getNodeParameter: (name: string, fallback?: unknown) => lookup(params, name) ?? fallback,
		};
		const result = await node.webhook.call(ctx as unknown as IWebhookFunctions);
		if (!result.noWebhookResponse) {
			sentBody = { message: 'Workflow was started' };
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sentBody));
		}
		calls.push({
			method: req.method ?? '',
			status,
			body: sentBody,
			workflowData: result.workflowData,
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook/cloudtel`,
		calls,
		staticData,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/**
 * What n8n's credential tester does for a credential its node tests (`testedBy`): calls the
 * node's `methods.credentialTest` function with the credential, in a context whose only
 * HTTP helper is the legacy `request` (n8n 1.x and 2.x alike). That helper is reduced here
 * to the options the test uses: json, resolveWithFullResponse, simple: false; a request
 * that gets no answer rejects with the network error, as axios does.
 */
export async function testCredential(
	credentials: Credentials,
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const node = new CloudTel();
	const testedBy = node.description.credentials?.find((c) => c.name === 'cloudTelApi')
		?.testedBy as string;
	const test = node.methods.credentialTest[testedBy as keyof typeof node.methods.credentialTest];
	const request = async (options: {
		uri: string;
		method: string;
		headers: Record<string, string>;
		json?: boolean;
		resolveWithFullResponse?: boolean;
		simple?: boolean;
	}) => {
		const response = await fetch(options.uri, { method: options.method, headers: options.headers });
		const text = await response.text();
		let body: unknown = text;
		if (options.json) {
			try {
				body = text === '' ? undefined : JSON.parse(text);
			} catch {
				// axios keeps a body that is not JSON as text.
			}
		}
		if (options.simple !== false && !response.ok)
			throw Object.assign(new Error(`${response.status}`), { statusCode: response.status });
		return options.resolveWithFullResponse
			? { statusCode: response.status, headers: Object.fromEntries(response.headers), body }
			: body;
	};
	const context = { helpers: { request } } as unknown as ICredentialTestFunctions;
	const result = await test.call(context, {
		id: 'c1',
		name: 'CloudTel',
		type: 'cloudTelApi',
		data: credentials as unknown as ICredentialDataDecryptedObject,
	});
	return { status: result.status as 'OK' | 'Error', message: result.message };
}

// The parts of n8n's execution context the CloudTel Campaign node calls: parameters (with
// per-item functions standing for expressions), items, Continue On Fail, hints, and n8n's
// authenticated HTTP helper doing real HTTP with the credential's Bearer header, as n8n
// applies a generic credential's `authenticate`.
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { CloudTelWorkerApi } from '../../../credentials/CloudTelWorkerApi.credentials';
import { CloudTelCampaign } from '../../../nodes/CloudTelCampaign/CloudTelCampaign.node';

export interface WorkerCredentials {
	url: string;
	apiToken: string;
}

export interface SentCall {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
	status: number;
}

const PROPERTIES = new CloudTelCampaign().description.properties;

function defaultOf(params: Record<string, unknown>, name: string): unknown {
	const shown = PROPERTIES.find(
		(p) =>
			p.name === name &&
			(!p.displayOptions?.show?.operation ||
				(p.displayOptions.show.operation as unknown[]).includes(params.operation)),
	);
	return shown?.default;
}

function lookup(params: Record<string, unknown>, name: string): unknown {
	if (name in params) return params[name];
	const [head, ...rest] = name.split('.');
	let value: unknown = params[head];
	for (const key of rest)
		value =
			value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
	return value;
}

/** A generic credential's header, filled in as n8n fills `={{$credentials.apiToken}}`. */
function signed(credentials: WorkerCredentials, options: IHttpRequestOptions): IHttpRequestOptions {
	const auth = new CloudTelWorkerApi().authenticate.properties.headers as Record<string, string>;
	const headers: Record<string, string> = {};
	for (const [k, v] of Object.entries(auth))
		headers[k] = v.replace(/^=/, '').replace('{{$credentials.apiToken}}', credentials.apiToken);
	return { ...options, headers: { ...(options.headers as Record<string, string>), ...headers } };
}

/**
 * A parameter in Expression mode: `raw` as n8n stores it (what getNode().parameters holds)
 * and `evaluate`, what n8n's evaluation of it gives for an item.
 */
export function expression(
	raw: string,
	evaluate: (itemIndex: number, item: INodeExecutionData) => unknown,
) {
	return Object.assign((itemIndex: number, item: INodeExecutionData) => evaluate(itemIndex, item), {
		raw,
	});
}

export function campaignContext(options: {
	credentials: WorkerCredentials;
	params: Record<string, unknown>;
	items?: INodeExecutionData[];
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}): IExecuteFunctions & { sent: SentCall[]; hints: NodeExecutionHint[] } {
	const items = options.items ?? [{ json: {} }];
	const sent: SentCall[] = [];
	const hints: NodeExecutionHint[] = [];
	const raw: IDataObject = {};
	for (const [k, v] of Object.entries(options.params))
		raw[k] = (
			typeof v === 'function' ? ((v as { raw?: string }).raw ?? '={{ per item }}') : v
		) as IDataObject[string];
	const ctx = {
		sent,
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getInputData: () => items,
		getNode: () => ({
			id: 'n1',
			name: 'CloudTel Campaign',
			type: 'n8n-nodes-cloudtel.cloudTelCampaign',
			typeVersion: 1,
			position: [0, 0],
			parameters: raw,
			onError: options.onError,
		}),
		getTimezone: () => 'UTC',
		continueOnFail: () =>
			options.onError === 'continueRegularOutput' || options.onError === 'continueErrorOutput',
		getCredentials: async () => ({ ...options.credentials }),
		getNodeParameter(name: string, itemIndex: number, fallback?: unknown) {
			let value = lookup(options.params, name);
			if (typeof value === 'function') value = value(itemIndex, items[itemIndex]);
			if (value === undefined)
				value = arguments.length >= 3 ? fallback : defaultOf(options.params, name);
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			return value;
		},
		helpers: {
			async httpRequestWithAuthentication(_type: string, request: IHttpRequestOptions) {
				const req = signed(options.credentials, request);
				const body = req.body === undefined ? undefined : JSON.stringify(req.body);
				const response = await fetch(req.url, {
					method: req.method ?? 'GET',
					headers: req.headers as Record<string, string>,
					body,
				});
				const text = await response.text();
				let parsed: unknown = text;
				try {
					parsed = text === '' ? '' : JSON.parse(text);
				} catch {
					// kept as text, as n8n's helper does
				}
				sent.push({
					method: req.method ?? 'GET',
					url: req.url,
					headers: req.headers as Record<string, string>,
					body: req.body,
					status: response.status,
				});
				return {
					statusCode: response.status,
					headers: Object.fromEntries(response.headers),
					body: parsed,
				};
			},
		},
	};
	return ctx as unknown as IExecuteFunctions & { sent: SentCall[]; hints: NodeExecutionHint[] };
}

/** n8n's credential tester for a node-tested credential: the node's function, with the legacy `request` helper. */
export async function testWorkerCredential(
	credentials: WorkerCredentials,
): Promise<{ status: string; message: string }> {
	const node = new CloudTelCampaign();
	const request = async (o: { uri: string; method: string; headers: Record<string, string> }) => {
		const response = await fetch(o.uri, { method: o.method, headers: o.headers });
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// text
		}
		return { statusCode: response.status, headers: Object.fromEntries(response.headers), body };
	};
	const result = await node.methods.credentialTest.cloudTelWorkerApiTest.call(
		{ helpers: { request } } as unknown as ICredentialTestFunctions,
		{
			id: 'w1',
			name: 'worker',
			type: 'cloudTelWorkerApi',
			data: credentials as unknown as ICredentialDataDecryptedObject,
		},
	);
	return { status: result.status, message: result.message };
}

import type { Agent } from 'undici';
import {
	basicAuthorization,
	joinUrl,
	readResponseStatus,
	requests,
	retryAfterMs,
	type SendMessageRequest,
} from '../../../api';
import type { BatchOutcome } from './batchOutcome';
import { neverSent } from './neverSent';

export interface ProviderConfig {
	baseUrl: string;
	accountSid: string;
	authToken: string;
}

/**
 * undici, loaded with the first client: a dry run sends nothing, and undici's modules were
 * ~20 MB of a process's resident memory and ~5 MB of its live heap, which V8 then let grow
 * up to fourfold before collecting it.
 */
let undiciModule: typeof import('undici') | undefined;
function undici(): typeof import('undici') {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (undiciModule ??= require('undici') as typeof import('undici'));
}

/**
 * Posts BatchMessages over undici, as to the real provider, and sorts each answer into a
 * BatchOutcome. Keep-alive connections, one per concurrent request.
 */
export class BatchClient {
	private readonly agent: Agent;
	private readonly authorization: string;

	constructor(
		private readonly config: ProviderConfig,
		connections: number,
		timeoutMs = 60_000,
	) {
		this.agent = new (undici().Agent)({
			connections,
			keepAliveTimeout: 10_000,
			headersTimeout: timeoutMs,
			bodyTimeout: timeoutMs,
			connect: { timeout: 10_000 },
		});
		this.authorization = basicAuthorization(config.accountSid, config.authToken);
	}

	async send(propertySid: string, messages: SendMessageRequest[]): Promise<BatchOutcome> {
		const call = requests.sendBatch(propertySid, messages);
		let status: number;
		let text: string;
		let retryAfter: string | string[] | undefined;
		try {
			const res = await undici().request(joinUrl(this.config.baseUrl, call.path), {
				method: call.method,
				dispatcher: this.agent,
				headers: {
					authorization: this.authorization,
					'content-type': 'application/json',
					accept: 'application/json',
				},
				body: JSON.stringify(call.body),
			});
			status = res.statusCode;
			retryAfter = res.headers['retry-after'];
			text = await res.body.text();
		} catch (error) {
			const code = (error as { code?: string }).code ?? '';
			// One line: OpenSSL's messages end in a newline.
			const reason = `${code || 'error'}: ${(error as Error).message.replace(/\s+/g, ' ').trim()}`;
			const unsent = neverSent(code);
			if (unsent === 'unreachable') return { kind: 'retry', status: 0, reason };
			if (unsent === 'misaddressed') return { kind: 'unsent', reason };
			return { kind: 'lost', reason };
		}
		let body: unknown;
		try {
			body = text === '' ? undefined : JSON.parse(text);
		} catch {
			body = undefined;
		}
		if (status === 429)
			return {
				kind: 'retry',
				status,
				reason: 'HTTP 429: rate limited',
				retryAfterMs: retryAfterMs(retryAfter),
			};
		if (status >= 200 && status < 300) {
			if (Array.isArray(body)) return { kind: 'answered', results: body };
			const error = readResponseStatus(body);
			if (error)
				return { kind: 'refused', status, error, detail: `${error.ErrorCode}: ${error.Message}` };
			return {
				kind: 'lost',
				reason: `HTTP ${status} with a body that is not a batch answer: ${text.slice(0, 200)}`,
			};
		}
		// A gateway timeout speaks for a proxy, not the provider: the batch may have gone through.
		if (status === 504) return { kind: 'lost', reason: 'HTTP 504: gateway timeout' };
		if (status >= 500)
			return {
				kind: 'retry',
				status,
				reason: `HTTP ${status}`,
				retryAfterMs: retryAfterMs(retryAfter),
			};
		const error = readResponseStatus(body);
		return {
			kind: 'refused',
			status,
			error,
			detail: error
				? `${error.ErrorCode}: ${error.Message}`
				: `HTTP ${status}: ${text.slice(0, 200)}`,
		};
	}

	async close(): Promise<void> {
		await this.agent.close();
	}
}

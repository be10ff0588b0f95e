import type {
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { joinUrl } from '../../../api';
import { foreignAnswer, networkCode } from '../../CloudTel/transport/foreignAnswer';
import { retryDelayMs } from '../../CloudTel/transport/retryDelay';
import { workerError } from './workerError';

export const WORKER_CREDENTIAL_NAME = 'cloudTelWorkerApi';

/**
 * Every call of the campaign API is idempotent (settings and pages are PUT by name and
 * number, start, pause, resume and cancel repeat harmlessly), so a call that got no answer,
 * a 429 or a 5xx is made again, a few times with back-off: a worker restarting under
 * n8n's feet costs a wait, not a failed workflow.
 */
export const MAX_WORKER_RETRIES = 4;

function header(response: IN8nHttpFullResponse, name: string): unknown {
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : headers[key];
}

/** Why a Worker URL cannot be used as it is written, or undefined: one without http:// or https:// is no address for n8n. */
export function workerUrlProblem(url: string): string | undefined {
	if (url === '')
		return "The Worker URL is empty: give the address of the cloudtel worker's HTTP server.";
	if (!/^https?:\/\//i.test(url))
		return `The Worker URL "${url}" has no http:// or https://: add https:// (or http:// for a worker on this machine or network), e.g. https://${url.replace(/^[a-z]*:?\/*/i, '')}.`;
	return undefined;
}

/** The sentence every "wrong place" error ends with, naming the URL in use. */
export function checkWorkerUrl(url: string): string {
	return `check the Worker URL of the CloudTel Worker API credential (now "${url}"): it must be where the cloudtel worker's HTTP server answers, without /api`;
}

export interface WorkerRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: unknown;
	query?: Record<string, string | number>;
}

/** The only place the Campaign node talks HTTP: one call of the worker's API, through n8n's authenticated helper. */
export async function workerRequest(
	this: IExecuteFunctions,
	request: WorkerRequest,
	itemIndex?: number,
): Promise<unknown> {
	const credentials = await this.getCredentials(WORKER_CREDENTIAL_NAME);
	const url = String(credentials.url ?? '').trim();
	const problem = workerUrlProblem(url);
	if (problem)
		throw new NodeOperationError(this.getNode(), problem, {
			itemIndex,
			description: 'Fix it in the CloudTel Worker API credential.',
		});
	const options: IHttpRequestOptions = {
		method: request.method,
		url: joinUrl(url, request.path, request.query),
		headers: {
			Accept: 'application/json',
			...(request.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
		},
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.body !== undefined) options.body = request.body as IHttpRequestOptions['body'];
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				WORKER_CREDENTIAL_NAME,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			if (attempt < MAX_WORKER_RETRIES) {
				await sleep(retryDelayMs(undefined, attempt));
				continue;
			}
			const code = networkCode(error);
			throw new NodeApiError(this.getNode(), error as JsonObject, {
				itemIndex,
				message: `Could not reach the CloudTel worker: ${(error as Error).message}`,
				description: `${code ? `${code}: ` : ''}${checkWorkerUrl(url)}.`,
			});
		}
		const { statusCode, body } = response;
		const foreign = foreignAnswer(statusCode, header(response, 'content-type'), body);
		if (foreign !== undefined) {
			throw new NodeApiError(
				this.getNode(),
				{ statusCode, body: String(body).slice(0, 200) } as JsonObject,
				{
					itemIndex,
					message: `The Worker URL answered ${foreign.replace("CloudTel's API", "the worker's campaign API")}`,
					description: `${checkWorkerUrl(url)}.`,
					httpCode: String(statusCode),
				},
			);
		}
		if (statusCode >= 200 && statusCode < 300) return body;
		if ((statusCode === 429 || statusCode >= 500) && attempt < MAX_WORKER_RETRIES) {
			await sleep(retryDelayMs(header(response, 'retry-after'), attempt));
			continue;
		}
		throw workerError(this.getNode(), statusCode, body, itemIndex);
	}
}

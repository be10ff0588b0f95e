import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { apiRoot, joinUrl, type ApiRequest } from '../../../api';
import { checkBaseUrl, foreignAnswer, networkCode } from './foreignAnswer';
import { providerError } from './providerError';
import { MAX_RATE_LIMIT_RETRIES, retryDelayMs } from './retryDelay';

export const CREDENTIAL_NAME = 'cloudTelApi';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

function header(response: IN8nHttpFullResponse, name: string): unknown {
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : headers[key];
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The only place the nodes talk HTTP. Sends one request built by api/ through n8n's
 * authenticated helper, waits out 429s (honouring Retry-After, a bounded number of
 * times: a 429 was not processed, so repeating it cannot send a message twice), and
 * returns the decoded body. Any other non-2xx becomes a NodeApiError.
 */
export async function apiRequest(
	this: Context,
	request: ApiRequest,
	itemIndex?: number,
): Promise<unknown> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const baseUrl = String(credentials.baseUrl ?? '');
	const hasBody = request.body !== undefined;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: joinUrl(apiRoot(baseUrl), request.path, request.query),
		headers: {
			Accept: 'application/json',
			...(hasBody ? { 'Content-Type': request.contentType ?? 'application/json' } : {}),
		},
		json: true,
		returnFullResponse: true,
		// Status codes are read here, so that 429 can be retried and the provider's
		// ErrorCode reaches the user instead of a generic HTTP message.
		ignoreHttpStatusErrors: true,
	};
	if (hasBody) options.body = request.body as IHttpRequestOptions['body'];

	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// No answer at all: most often a Base URL that points at the wrong host or port.
			const code = networkCode(error);
			throw new NodeApiError(this.getNode(), error as JsonObject, {
				itemIndex,
				message: `Could not reach CloudTel: ${(error as Error).message}`,
				description: `${code ? `${code}: ` : ''}${capitalised(checkBaseUrl(baseUrl))}.`,
			});
		}
		const { statusCode, body } = response;
		// Another web server at the Base URL: say so, rather than pass its page on as a result or a raw error.
		const foreign = foreignAnswer(statusCode, header(response, 'content-type'), body);
		if (foreign !== undefined) {
			const error = new NodeApiError(
				this.getNode(),
				{ statusCode, body: String(body).slice(0, 200) } as JsonObject,
				{
					itemIndex,
					message: `The Base URL answered ${foreign}`,
					description: `${capitalised(checkBaseUrl(baseUrl))}.`,
					httpCode: String(statusCode),
				},
			);
			error.context.notCloudTel = true;
			throw error;
		}
		if (statusCode >= 200 && statusCode < 300) return body;
		if (statusCode === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
			await sleep(retryDelayMs(header(response, 'retry-after'), attempt));
			continue;
		}
		throw providerError(this.getNode(), body, { statusCode, itemIndex, sent: request.body });
	}
}

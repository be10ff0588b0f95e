import type { IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { joinUrl, type ApiRequest } from '../../../api';
import { providerError } from './providerError';
import { MAX_RATE_LIMIT_RETRIES, retryDelayMs } from './retryDelay';

export const CREDENTIAL_NAME = 'cloudTelApi';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

function header(response: IN8nHttpFullResponse, name: string): unknown {
	const headers = (response.headers ?? {}) as Record<string, unknown>;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : headers[key];
}

/**
 * The only place the nodes talk HTTP. Sends one request built by api/ through n8n's
 * authenticated helper, waits out 429s (honouring Retry-After, a bounded number of
 * times: a 429 was not processed, so repeating it cannot send a message twice), and
 * returns the decoded body. Any other non-2xx becomes a NodeApiError.
 */
export async function apiRequest(this: Context, request: ApiRequest, itemIndex?: number): Promise<unknown> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const hasBody = request.body !== undefined;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: joinUrl(String(credentials.baseUrl ?? ''), request.path, request.query),
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
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_NAME, options)) as IN8nHttpFullResponse;
		} catch (error) {
			// No answer at all: most often a Base URL that points at the wrong host or port.
			throw new NodeApiError(this.getNode(), error as JsonObject, {
				itemIndex,
				message: `Could not reach CloudTel: ${(error as Error).message}`,
				description: `Check the Base URL of the CloudTel API credential (now "${String(credentials.baseUrl ?? '')}"): it must be the root of the CloudTel API your account uses.`,
			});
		}
		const { statusCode, body } = response;
		if (statusCode >= 200 && statusCode < 300) return body;
		if (statusCode === 429 && attempt < MAX_RATE_LIMIT_RETRIES) {
			await sleep(retryDelayMs(header(response, 'retry-after'), attempt));
			continue;
		}
		throw providerError(this.getNode(), body, { statusCode, itemIndex });
	}
}

import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describeResponseStatus, isPlainObject, readResponseStatus, type ResponseStatus } from '../../../api';

const UNAUTHORIZED_HINT = 'Check the Account SID and Auth Token of the CloudTel API credential.';

export interface ProviderErrorOptions {
	/** Absent for a per-message error inside a 200 batch answer. */
	statusCode?: number;
	itemIndex?: number;
}

/**
 * A provider error (a non-2xx body, or one element of a batch answer) as a NodeApiError:
 * the provider's ErrorCode and Message as the message, one line per offending field as
 * the description, and both kept in `context` so expressions and tests need not parse text.
 */
export function providerError(node: INode, body: unknown, options: ProviderErrorOptions = {}): NodeApiError {
	const { statusCode, itemIndex } = options;
	const status: ResponseStatus = readResponseStatus(body) ?? {
		ErrorCode: statusCode === undefined ? 'UNKNOWN' : `HTTP_${statusCode}`,
		Message: typeof body === 'string' && body !== '' ? body.slice(0, 500) : `CloudTel answered HTTP ${statusCode ?? '?'}.`,
		Errors: [],
	};
	const fields = (status.Errors ?? []).filter((e) => e.FieldName);
	const lines = fields.map((e) => `${e.FieldName}: ${e.Message || e.ErrorCode}`);
	if (statusCode === 401) lines.push(UNAUTHORIZED_HINT);
	const response: JsonObject = isPlainObject(body) ? (body as JsonObject) : { ResponseStatus: { ...status } as unknown as JsonObject };
	const error = new NodeApiError(node, response, {
		message: describeResponseStatus(status),
		description: lines.join('\n') || undefined,
		httpCode: statusCode === undefined ? undefined : String(statusCode),
		itemIndex,
	});
	error.context.ErrorCode = status.ErrorCode;
	error.context.FieldNames = [...new Set(fields.map((e) => e.FieldName))];
	return error;
}

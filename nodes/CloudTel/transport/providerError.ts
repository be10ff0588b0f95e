import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { describeResponseStatus, isPlainObject, readResponseStatus, type ResponseStatus } from '../../../api';
import { fieldDisplayName } from '../actions/common/fieldDisplayName';

const UNAUTHORIZED_HINT = 'Check the Account SID and Auth Token of the CloudTel API credential.';

export interface ProviderErrorOptions {
	/** Absent for a per-message error inside a 200 batch answer. */
	statusCode?: number;
	itemIndex?: number;
}

/**
 * A provider error (a non-2xx body, or one element of a batch answer) as a NodeApiError:
 * a short title with the ErrorCode (naming the offending fields as the node shows them),
 * the provider's sentences as the description, and ErrorCode and field paths kept in
 * `context` so expressions and tests need not parse text.
 */
export function providerError(node: INode, body: unknown, options: ProviderErrorOptions = {}): NodeApiError {
	const { statusCode, itemIndex } = options;
	const status: ResponseStatus = readResponseStatus(body) ?? {
		ErrorCode: statusCode === undefined ? 'UNKNOWN' : `HTTP_${statusCode}`,
		Message: typeof body === 'string' && body !== '' ? body.slice(0, 500) : `CloudTel answered HTTP ${statusCode ?? '?'}.`,
		Errors: [],
	};
	const fields = (status.Errors ?? []).filter((e) => e.FieldName);
	const paths = [...new Set(fields.map((e) => e.FieldName))];
	// Each of the provider's sentences once (a field's own often repeats the Message),
	// then the API's field paths for those who map fields by hand.
	const sentences = [...new Set([status.Message, ...fields.map((e) => e.Message || e.ErrorCode)])];
	const lines = fields.length > 0 ? [...sentences, `Fields: ${paths.join(', ')}`] : [];
	if (statusCode === 401) lines.push(UNAUTHORIZED_HINT);
	const response: JsonObject = isPlainObject(body) ? (body as JsonObject) : { ResponseStatus: { ...status } as unknown as JsonObject };
	const error = new NodeApiError(node, response, {
		// With fields, a short title naming them as the node shows them.
		message: fields.length > 0 ? `CloudTel refused ${[...new Set(paths.map(fieldDisplayName))].join(', ')}: ${status.ErrorCode}` : describeResponseStatus(status),
		description: lines.join('\n') || undefined,
		httpCode: statusCode === undefined ? undefined : String(statusCode),
		itemIndex,
	});
	error.context.ErrorCode = status.ErrorCode;
	error.context.FieldNames = paths;
	return error;
}

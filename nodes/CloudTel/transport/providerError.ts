import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import {
	describeResponseStatus,
	isPlainObject,
	readResponseStatus,
	type ResponseStatus,
} from '../../../api';
import { fieldErrors, titleFields } from '../actions/common/fieldErrors';

const UNAUTHORIZED_HINT = 'Check the Account SID and Auth Token of the CloudTel API credential.';

export interface ProviderErrorOptions {
	/** Absent for a per-message error inside a 200 batch answer. */
	statusCode?: number;
	itemIndex?: number;
	/** The request body as sent (for a batch, that message's), so the error can say what each refused field held. */
	sent?: unknown;
}

/**
 * A provider error (a non-2xx body, or one element of a batch answer) as a NodeApiError:
 * a short title naming each offending field as the node shows it with its own ErrorCode,
 * the provider's sentences as the description, and ErrorCode and field paths kept in
 * `context` so expressions and tests need not parse text.
 */
export function providerError(
	node: INode,
	body: unknown,
	options: ProviderErrorOptions = {},
): NodeApiError {
	const { statusCode, itemIndex, sent } = options;
	const status: ResponseStatus = readResponseStatus(body) ?? {
		ErrorCode: statusCode === undefined ? 'UNKNOWN' : `HTTP_${statusCode}`,
		Message:
			typeof body === 'string' && body !== ''
				? body.slice(0, 500)
				: `CloudTel answered HTTP ${statusCode ?? '?'}.`,
		Errors: [],
	};
	const fields = (status.Errors ?? []).filter((e) => e.FieldName);
	// A field listed without a code of its own is at fault for the answer's.
	const errors = fieldErrors(
		fields.map((e) => ({ ...e, ErrorCode: e.ErrorCode || status.ErrorCode })),
		sent,
	);
	const paths = errors.map((e) => e.FieldName);
	// Each of the provider's sentences once (a field's own often repeats the Message),
	// then the API's field paths for those who map fields by hand.
	const sentences = [...new Set([status.Message, ...fields.map((e) => e.Message || e.ErrorCode)])];
	const lines = fields.length > 0 ? [...sentences, `Fields: ${paths.join(', ')}`] : [];
	if (statusCode === 401) lines.push(UNAUTHORIZED_HINT);
	const response: JsonObject = isPlainObject(body)
		? (body as JsonObject)
		: { ResponseStatus: { ...status } as unknown as JsonObject };
	const error = new NodeApiError(node, response, {
		// With fields, a short title naming them as the node shows them.
		message:
			fields.length > 0
				? `CloudTel refused ${titleFields(errors)}`
				: describeResponseStatus(status),
		description: lines.join('\n') || undefined,
		httpCode: statusCode === undefined ? undefined : String(statusCode),
		itemIndex,
	});
	error.context.ErrorCode = status.ErrorCode;
	error.context.FieldNames = paths;
	error.context.Errors = errors;
	return error;
}

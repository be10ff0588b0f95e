import { isPlainObject } from './fields';
import type { ResponseStatus } from './types/errors';
import type { BatchErrorItem, BatchResultItem, Message } from './types/message';

/**
 * Reads `{Key: value}` or a bare value: the real provider may differ from the
 * contract in wrapping, so clients accept both (contract.md, opening paragraph).
 */
export function unwrap<T>(body: unknown, key: string): T {
	if (isPlainObject(body) && isPlainObject(body[key])) return body[key] as T;
	return body as T;
}

/** The error in a non-2xx body: `{ResponseStatus: {...}}`, or the bare object. */
export function readResponseStatus(body: unknown): ResponseStatus | undefined {
	const inner =
		isPlainObject(body) && isPlainObject(body.ResponseStatus) ? body.ResponseStatus : body;
	if (!isPlainObject(inner) || typeof inner.ErrorCode !== 'string') return undefined;
	return {
		ErrorCode: inner.ErrorCode,
		Message: typeof inner.Message === 'string' ? inner.Message : '',
		Errors: Array.isArray(inner.Errors) ? (inner.Errors as ResponseStatus['Errors']) : [],
	};
}

export function isBatchErrorItem(item: BatchResultItem | unknown): item is BatchErrorItem {
	return (
		isPlainObject(item) &&
		typeof item.ErrorCode === 'string' &&
		item.ErrorCode !== '' &&
		typeof item.MessageSid !== 'string'
	);
}

export function isMessage(item: unknown): item is Message {
	return isPlainObject(item) && typeof item.MessageSid === 'string';
}

/** One line for a person: code, message and the fields at fault. */
export function describeResponseStatus(status: ResponseStatus): string {
	const fields = (status.Errors ?? []).map((e) => e.FieldName).filter((f) => f);
	const tail = fields.length > 0 ? ` (fields: ${[...new Set(fields)].join(', ')})` : '';
	return `${status.ErrorCode}: ${status.Message}${tail}`;
}

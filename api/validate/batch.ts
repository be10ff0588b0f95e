import { ErrorCodes } from '../errorCodes';
import { isPlainObject } from '../fields';
import { BATCH_MAX_MESSAGES, type BatchErrorItem } from '../types/message';
import type { ResponseStatus } from '../types/errors';
import type { Violation } from '../violation';

/**
 * The batch envelope: `{Messages: [...]}` with 1 to 1000 elements. Anything else fails
 * the whole request; element problems are reported per message instead.
 */
export function validateBatchEnvelope(body: unknown): ResponseStatus | undefined {
	if (!isPlainObject(body) || !('Messages' in body)) {
		return {
			ErrorCode: ErrorCodes.FieldRequired,
			Message: 'The body must be {"Messages": [...]}.',
			Errors: [
				{
					ErrorCode: ErrorCodes.FieldRequired,
					FieldName: 'Messages',
					Message: 'Messages is required.',
				},
			],
		};
	}
	if (!Array.isArray(body.Messages)) {
		return {
			ErrorCode: ErrorCodes.InvalidType,
			Message: 'Messages must be an array.',
			Errors: [
				{
					ErrorCode: ErrorCodes.InvalidType,
					FieldName: 'Messages',
					Message: 'Messages must be an array.',
				},
			],
		};
	}
	if (body.Messages.length === 0) {
		return {
			ErrorCode: ErrorCodes.BatchEmpty,
			Message: 'Messages must hold at least one message.',
			Errors: [
				{ ErrorCode: ErrorCodes.BatchEmpty, FieldName: 'Messages', Message: 'Messages is empty.' },
			],
		};
	}
	if (body.Messages.length > BATCH_MAX_MESSAGES) {
		const message = `A batch holds at most ${BATCH_MAX_MESSAGES} messages (got ${body.Messages.length}).`;
		return {
			ErrorCode: ErrorCodes.BatchTooLarge,
			Message: message,
			Errors: [{ ErrorCode: ErrorCodes.BatchTooLarge, FieldName: 'Messages', Message: message }],
		};
	}
	return undefined;
}

/** The per-message error element of a batch answer: the first code, every field. */
export function batchErrorItem(violations: Violation[]): BatchErrorItem {
	return {
		ErrorCode: violations[0].ErrorCode,
		Message: violations.map((v) => v.Message).join(' '),
		Errors: violations.map((v) => ({
			ErrorCode: v.ErrorCode,
			FieldName: v.FieldName,
			Message: v.Message,
		})),
	};
}

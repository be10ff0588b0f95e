import {
	ErrorCodes,
	type ErrorCode,
	type ErrorResponse,
	type ResponseStatus,
	type Violation,
} from '../../../api';

/** A refusal with its status and the ResponseStatus body contract.md prescribes. */
export class ApiError extends Error {
	constructor(
		readonly statusCode: number,
		readonly status: ResponseStatus,
		readonly headers: Record<string, string> = {},
	) {
		super(status.Message);
	}

	body(): ErrorResponse {
		return { ResponseStatus: { ...this.status, Errors: this.status.Errors ?? [] } };
	}
}

export function fail(
	statusCode: number,
	code: ErrorCode,
	message: string,
	fieldName = '',
): ApiError {
	return new ApiError(statusCode, {
		ErrorCode: code,
		Message: message,
		Errors: fieldName ? [{ ErrorCode: code, FieldName: fieldName, Message: message }] : [],
	});
}

/** 400 listing every violation; the first one's code leads, as ServiceStack-style APIs do. */
export function invalid(violations: Violation[]): ApiError {
	return new ApiError(400, {
		ErrorCode: violations[0].ErrorCode,
		Message: violations.map((v) => v.Message).join(' '),
		Errors: violations.map((v) => ({
			ErrorCode: v.ErrorCode,
			FieldName: v.FieldName,
			Message: v.Message,
		})),
	});
}

export function notFound(what: string): ApiError {
	return fail(404, ErrorCodes.NotFound, `${what} was not found.`);
}

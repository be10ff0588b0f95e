import type { WorkerApiErrorBody, WorkerApiErrorCode } from '../../../../api';
import { HttpError } from '../http/httpErrors';

type Details = Omit<WorkerApiErrorBody['error'], 'code' | 'message'>;

/** A refusal of the campaign API: its code's status (the catalogue, http/httpErrors) and `{"error": {...}}`. */
export class ApiError extends HttpError {
	declare readonly code: WorkerApiErrorCode;
	declare readonly details: Details;

	constructor(code: WorkerApiErrorCode, message: string, details: Details = {}) {
		super(code, message, { details });
	}

	body(): WorkerApiErrorBody {
		return { error: { code: this.code, message: this.message, ...this.details } };
	}
}

export function notFound(name: string): ApiError {
	return new ApiError('not_found', `no campaign named "${name}"`, { field: 'name' });
}

/** Every problem found; the first one's field names the error. */
export function invalid(problems: { field: string; message: string }[]): ApiError {
	return new ApiError('invalid', problems.map((p) => p.message).join('; '), {
		field: problems[0]?.field,
		problems,
	});
}

import {
	WORKER_API_ERROR_STATUS,
	type WorkerApiErrorBody,
	type WorkerApiErrorCode,
} from '../../../../api';

type Details = Omit<WorkerApiErrorBody['error'], 'code' | 'message'>;

/** A refusal of the campaign API, answered with its status and `{"error": {...}}`. */
export class ApiError extends Error {
	readonly status: number;

	constructor(
		readonly code: WorkerApiErrorCode,
		message: string,
		readonly details: Details = {},
	) {
		super(message);
		this.status = WORKER_API_ERROR_STATUS[code];
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

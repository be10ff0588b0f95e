import type { SettingDifference } from './campaignSettings';

export type WorkerApiErrorCode =
	| 'unauthorized'
	| 'not_found'
	| 'invalid'
	| 'conflict'
	| 'page_conflict'
	| 'started'
	| 'pages_missing'
	| 'too_large'
	/** A page that would take the campaign's columns past MAX_CAMPAIGN_COLUMNS; `field` names the first extra. */
	| 'too_many_columns'
	| 'unsupported_media_type'
	/** Something the worker did not expect; the log has the detail. */
	| 'internal';

/** The HTTP status each error code is answered with. */
export const WORKER_API_ERROR_STATUS: Record<WorkerApiErrorCode, number> = {
	unauthorized: 401,
	not_found: 404,
	invalid: 400,
	conflict: 409,
	page_conflict: 409,
	started: 409,
	pages_missing: 409,
	too_large: 413,
	too_many_columns: 400,
	unsupported_media_type: 415,
	internal: 500,
};

/** Every refusal of the campaign API: `{"error": {...}}`. */
export interface WorkerApiErrorBody {
	error: {
		code: WorkerApiErrorCode;
		message: string;
		/** The field, row or line at fault: `rate`, `recipients[12].phone`, `line 7`. */
		field?: string;
		/** Every problem found, when there are several (`invalid`). */
		problems?: { field: string; message: string }[];
		/** `conflict`: each setting stored and given differently. */
		differences?: SettingDifference[];
		/** `pages_missing`: the page numbers not received. */
		missing?: number[];
	};
}

export function isWorkerApiErrorBody(value: unknown): value is WorkerApiErrorBody {
	if (typeof value !== 'object' || value === null) return false;
	const error = (value as { error?: unknown }).error;
	return (
		typeof error === 'object' &&
		error !== null &&
		typeof (error as { code?: unknown }).code === 'string' &&
		typeof (error as { message?: unknown }).message === 'string'
	);
}

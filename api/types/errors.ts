export interface FieldError {
	ErrorCode: string;
	FieldName: string;
	Message: string;
}

export interface ResponseStatus {
	ErrorCode: string;
	Message: string;
	Errors?: FieldError[];
}

/** The body of every non-2xx answer (contract.md). */
export interface ErrorResponse {
	ResponseStatus: ResponseStatus;
}

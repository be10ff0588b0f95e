/** One thing wrong with a request to the worker's campaign API, named by its field, row or line. */
export interface ApiProblem {
	/** `name`, `rate`, `recipients[12].phone`, `line 7`: where the problem is. */
	field: string;
	message: string;
}

export function problem(field: string, message: string): ApiProblem {
	return { field, message };
}

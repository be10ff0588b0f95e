import { checkRecipientPage } from '../../../../api';
import { invalid } from './apiError';
import { pageBody } from './apiSchemas';
import { zodProblems } from './requestParse';

/**
 * A page's body checked for its shape by its route's zod schema, as every body of the API
 * is. Refused, it is described in api/workerApi's words where they are finer (the field at
 * fault and what it must be: `recipients[12].phone must be a string, ...`), the words the
 * n8n node gives for the same page. The body is passed on as it came, not as zod's copy of
 * it: a copy loses a column named `__proto__`, and the page's hash is over what was sent.
 * The rules past shape (column names, lengths) are api/workerApi's, checked where the page
 * is stored.
 */
export function parsePageBody(body: unknown): unknown {
	const result = pageBody.safeParse(body);
	if (result.success) return body;
	const named = checkRecipientPage(body);
	throw invalid(named.length > 0 ? named : zodProblems(result.error, 'body'));
}

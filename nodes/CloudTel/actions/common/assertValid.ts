import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { Violation } from '../../../../api';
import { fieldErrors, titleFields } from './fieldErrors';

/**
 * Throws before any request when api/ found a problem. The title is short and names each
 * field as the node shows it, with that field's own code (n8n adds the item itself); the
 * description has one line per problem, with the API's field path and ErrorCode for those
 * who map fields by hand. `sent` is the request as built, so the context can say what
 * value each field held.
 */
export function assertValid(
	node: INode,
	violations: Violation[],
	itemIndex: number,
	sent?: unknown,
): void {
	if (violations.length === 0) return;
	const errors = fieldErrors(violations, sent);
	const error = new NodeOperationError(node, `Invalid ${titleFields(errors)}`, {
		itemIndex,
		description: violations
			.map((v) => `${v.Message} (${v.FieldName || 'body'}, ${v.ErrorCode})`)
			.join('\n'),
	});
	error.context.ErrorCode = violations[0].ErrorCode;
	error.context.FieldNames = errors.map((e) => e.FieldName);
	error.context.Errors = errors;
	throw error;
}

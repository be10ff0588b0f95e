import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { Violation } from '../../../../api';
import { fieldDisplayName } from './fieldDisplayName';

/**
 * Throws before any request when api/ found a problem. The title is short and names the
 * fields as the node shows them (n8n adds the item itself); the description has one line
 * per problem, with the API's field path and ErrorCode for those who map fields by hand.
 */
export function assertValid(node: INode, violations: Violation[], itemIndex: number): void {
	if (violations.length === 0) return;
	const fields = [...new Set(violations.map((v) => v.FieldName || 'body'))];
	const shown = [...new Set(fields.map(fieldDisplayName))];
	const error = new NodeOperationError(node, `Invalid ${shown.join(', ')}: ${violations[0].ErrorCode}`, {
		itemIndex,
		description: violations.map((v) => `${v.Message} (${v.FieldName || 'body'}, ${v.ErrorCode})`).join('\n'),
	});
	error.context.ErrorCode = violations[0].ErrorCode;
	error.context.FieldNames = fields;
	throw error;
}

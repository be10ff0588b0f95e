import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { Violation } from '../../../../api';

/**
 * Throws before any request when api/ found a problem: the message names every field
 * at fault and the item, the description has one line per problem.
 */
export function assertValid(node: INode, violations: Violation[], itemIndex: number): void {
	if (violations.length === 0) return;
	const fields = [...new Set(violations.map((v) => v.FieldName || 'body'))];
	const error = new NodeOperationError(node, `Invalid ${fields.join(', ')} [item ${itemIndex}]: ${violations[0].ErrorCode}: ${violations[0].Message}`, {
		itemIndex,
		description: violations.map((v) => `${v.FieldName || 'body'}: ${v.Message}`).join('\n'),
	});
	error.context.ErrorCode = violations[0].ErrorCode;
	error.context.FieldNames = fields;
	throw error;
}

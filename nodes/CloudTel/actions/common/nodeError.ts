import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type NodeError = NodeApiError | NodeOperationError;

/** Keeps n8n's own errors (with the item index added) and wraps anything else. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

import type { INodeProperties } from 'n8n-workflow';
import { INCLUDE_INPUT_FIELDS } from './failureItem';

/** Shown on Send, Send Batch and the create operations: results that join back to their contacts. */
export const includeInputFieldsField: INodeProperties = {
	displayName: 'Include Input Fields',
	name: INCLUDE_INPUT_FIELDS,
	type: 'boolean',
	default: true,
	description:
		"Whether each output item, sent or failed, also carries the input item's own fields (a customer ID, say), so results join back to their contacts. Where a name is taken, the node's field wins.",
};

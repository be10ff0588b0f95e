import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

const description =
	'Whether to return a simplified version of the response instead of the raw data';

/**
 * n8n's usual Simplify switch, on operations whose answer has more than 10 fields. On by
 * default from node version 1.1; a node saved at version 1 keeps its full output, so
 * existing workflows see no change (and can still turn it on).
 */
export const simplifyFields: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description,
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
];

/** `json` with only `fields`, in that order (those it has). */
function pick(json: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (Object.hasOwn(json, field)) out[field] = json[field];
	return out;
}

/**
 * The provider's answer for item `i` as the node outputs it: only `fields` when Simplify is
 * on, and always when the node runs as an AI agent's tool (the variant n8n names
 * `<type>Tool`), where every field is read by the model. Read once unless Simplify is an
 * expression: Send Batch asks for it per message.
 */
export function simplifier(
	ctx: IExecuteFunctions,
	fields: readonly string[],
): (json: IDataObject, itemIndex: number) => IDataObject {
	const node = ctx.getNode();
	if (node.type.endsWith('Tool')) return (json) => pick(json, fields);
	const raw = node.parameters.simplify;
	const perItem = typeof raw === 'string' && raw.startsWith('=');
	const once = perItem ? undefined : ctx.getNodeParameter('simplify', 0, false) === true;
	return (json, itemIndex) =>
		(once ?? ctx.getNodeParameter('simplify', itemIndex, false) === true)
			? pick(json, fields)
			: json;
}

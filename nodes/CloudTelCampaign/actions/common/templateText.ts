import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * References n8n resolves against one item. The node reads its settings once, on item 0,
 * so an expression holding one would give every recipient item 0's value.
 */
const PER_ITEM =
	/\$json\b|\$input\s*\.\s*item\b|\$binary\b|\$item\b|\$itemIndex\b|\$data\b|\$node\b|\.\s*item\b/;

/** `$json.first_name`, `$json["first name"]`, `$input.item.json.x`: a field of the recipient. */
const FIELD_READ =
	/^\s*(?:\$json|\$input\s*\.\s*item\s*\.\s*json)\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:"([^"{}\n]+)"|'([^'{}\n]+)')\s*\])\s*$/;

/** `{{ first_name }}` in Expression mode: the worker's placeholder typed where n8n reads JavaScript. */
const BARE_NAME = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$/;

const EXPRESSION_PART = /\{\{([\s\S]*?)\}\}/g;

export interface TemplateText {
	text: string;
	/** The Text was an Expression read as the template it means: the panel says so. */
	rewritten?: { from: string };
}

function fieldOf(expression: string): string | undefined {
	const read = FIELD_READ.exec(expression);
	if (read) return read[1] ?? read[2] ?? read[3];
	const bare = BARE_NAME.exec(expression);
	return bare && !['true', 'false', 'null', 'undefined'].includes(bare[1]) ? bare[1] : undefined;
}

/**
 * The campaign's Text as the worker's template over each recipient's fields. In Fixed mode
 * it is taken as written. In Expression mode n8n would evaluate it once, so with a read of
 * an item's field everyone would get item 0's text: plain field reads are turned into the
 * placeholders they mean (`{{ $json.first_name }}` into `{{first_name}}`); any other
 * per-item expression is refused before anything is handed over. An expression over no item
 * (`$fromAI(...)`, `$vars.x`) is the same for everyone: n8n's value is taken.
 */
export function readTemplateText(ctx: IExecuteFunctions): TemplateText {
	const raw = ctx.getNode().parameters.text;
	const evaluated = () => {
		const value = ctx.getNodeParameter('text', 0, '');
		return typeof value === 'string' ? value : String(value ?? '');
	};
	if (typeof raw !== 'string' || !raw.startsWith('=')) return { text: evaluated() };
	const source = raw.slice(1);
	const parts = [...source.matchAll(EXPRESSION_PART)];
	if (!parts.some((m) => PER_ITEM.test(m[1]) || fieldOf(m[1]) !== undefined))
		return { text: evaluated() };
	const unreadable = parts.filter((m) => fieldOf(m[1]) === undefined).map((m) => m[0]);
	if (unreadable.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Text is an Expression that n8n would evaluate once, for the first item: every recipient would get its text',
			{
				itemIndex: 0,
				description:
					`The worker fills in the Text for each recipient from {{field}} placeholders. ${unreadable.map((e) => `"${e}"`).join(', ')} cannot be read as one. ` +
					'Set the Text to Fixed and write the fields as {{first_name}}; a value that needs computing (upper case, a date, another node) goes in a field of each item first (an Edit Fields node before this one).',
			},
		);
	}
	const text = source.replace(
		EXPRESSION_PART,
		(_all, expression: string) => `{{${fieldOf(expression)}}}`,
	);
	return { text, rewritten: { from: raw } };
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { FieldError } from './fieldErrors';
import type { NodeError } from './nodeError';
import { withReadableDates } from './readableDates';
import { simplifier } from './simplify';

function details(error: NodeError): IDataObject {
	const out: IDataObject = { Message: error.message };
	if (error.context.ErrorCode !== undefined) out.ErrorCode = error.context.ErrorCode as string;
	if (error.context.FieldNames !== undefined) out.FieldNames = error.context.FieldNames as string[];
	if (error.description) out.Description = error.description;
	return out;
}

/**
 * The output item of a failed input item for operations that only read or change in place
 * (a retry of those repeats nothing harmful, so the json keeps n8n's usual `error` key);
 * `pairedItem` links it to its input. Routed to the error output as `outcomes` explains, so
 * its fields reach it whole on n8n 2.x.
 */
export function failureItem(
	error: NodeError,
	itemIndex: number,
	errorOutput: boolean,
): INodeExecutionData {
	const item: INodeExecutionData = { json: failureJson(error), pairedItem: { item: itemIndex } };
	// On the main output the error stays on the item, where n8n keeps it beside the json.
	return errorOutput ? routed(item, error, true) : { ...item, error };
}

/** A failed item's json: n8n's usual `error` (the title) with the node's Message, ErrorCode, FieldNames and Description. */
export function failureJson(error: NodeError): IDataObject {
	return { error: error.message, ...details(error) };
}

/** Whether the node routes failed items to an error output (On Error: Continue (using error output)). */
export function hasErrorOutput(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().onError === 'continueErrorOutput';
}

/**
 * Puts `error` on an item that goes to the error output, not as an own enumerable key: n8n
 * routes the item by it, and its copy for the error output then does not carry it, so n8n
 * 2.x leaves the item's json whole (see `outcomes`).
 */
export function routed(
	item: INodeExecutionData,
	error: NodeError,
	errorOutput: boolean,
): INodeExecutionData {
	if (errorOutput)
		Object.defineProperty(item, 'error', {
			value: error,
			enumerable: false,
			writable: true,
			configurable: true,
		});
	return item;
}

/** The option, shown on Send, Send Batch and the create operations, that copies the input item's fields. */
export const INCLUDE_INPUT_FIELDS = 'includeInputFields';

export interface Outcomes {
	/** A result as its output item: the input's fields (with the option on), then the provider's. */
	success(json: IDataObject, itemIndex: number): INodeExecutionData;
	/** A failure as its output item, paired to its input, routed to the error output when there is one. */
	failure(error: NodeError, itemIndex: number): INodeExecutionData;
}

/**
 * Output items for operations that send or create. A failure says what did not happen
 * (`Sent: false` or `Created: false`), why (`ErrorCode`, the title as `Message`, the full
 * explanation as `Description`), where (`FieldNames`) and with what (`Errors`: each field's
 * own code, sentence and value), beside the input item's own fields so that it can be joined
 * back to its contact.
 *
 * Two things in n8n shape this. Its Retry On Fail re-runs the whole node when the first
 * item's `json.error` is set, which would send every other message again, or create every
 * other login, trunk or address a second time: so the json has no `error` key. And n8n 2.x
 * rewrites the json of every item that still carries `error` when the node has run to
 * `{error: message}` (WorkflowExecute.normalizeNodeErrors), which would throw all of the
 * above away. So `error` is put on the item only when there is an error output, which needs
 * it to route the item, and not as an own enumerable key: n8n reads it to route the item,
 * then copies the item with its input's fields into the error output, and the copy no
 * longer carries it.
 */
export function outcomes(
	ctx: IExecuteFunctions,
	outcome: 'Sent' | 'Created',
	simplified?: readonly string[],
): Outcomes {
	const input = ctx.getInputData();
	const withInput = ctx.getNodeParameter(INCLUDE_INPUT_FIELDS, 0, true) !== false;
	const errorOutput = hasErrorOutput(ctx);
	// Simplify (where offered) trims the provider's answer, never the input's fields.
	const simplify = simplified && simplifier(ctx, simplified);
	const own = (itemIndex: number): IDataObject => {
		if (!withInput) return {};
		// An input's own `error` (from another node's error output) would read, on the first
		// item, as this node failing, and make Retry On Fail send everything again.
		const json = input[itemIndex]?.json ?? {};
		return Object.hasOwn(json, 'error')
			? Object.fromEntries(Object.entries(json).filter(([key]) => key !== 'error'))
			: { ...json };
	};
	return {
		success: (json, itemIndex) => ({
			json: withReadableDates(simplify ? simplify(json, itemIndex) : json, own(itemIndex)),
			pairedItem: { item: itemIndex },
		}),
		failure(error, itemIndex) {
			const json: IDataObject = { ...own(itemIndex), [outcome]: false, ...details(error) };
			const errors = error.context.Errors as FieldError[] | undefined;
			json.Errors = errors ?? [];
			return routed({ json, pairedItem: { item: itemIndex } }, error, errorOutput);
		},
	};
}

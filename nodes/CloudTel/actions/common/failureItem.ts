import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { NodeError } from './nodeError';

function details(error: NodeError): IDataObject {
	const out: IDataObject = { Message: error.message };
	if (error.context.ErrorCode !== undefined) out.ErrorCode = error.context.ErrorCode as string;
	if (error.context.FieldNames !== undefined) out.FieldNames = error.context.FieldNames as string[];
	if (error.description) out.Description = error.description;
	return out;
}

/**
 * The output item of a failed input item. `error` on the item is what sends it to the
 * error output when one is enabled; `pairedItem` links it to its input.
 */
export function failureItem(error: NodeError, itemIndex: number): INodeExecutionData {
	return { json: { error: error.message, ...details(error) }, error, pairedItem: { item: itemIndex } };
}

/**
 * For operations that send or create, the json has no `error` key: n8n's Retry On Fail
 * re-runs the whole node when its first item carries `json.error`, which would send every
 * other message again, or create every other login, trunk or address a second time.
 * `Sent: false` or `Created: false` says what did not happen instead.
 */
function withoutRetry(outcome: 'Sent' | 'Created') {
	return (error: NodeError, itemIndex: number): INodeExecutionData => ({
		json: { [outcome]: false, ...details(error) },
		error,
		pairedItem: { item: itemIndex },
	});
}

export const sendFailureItem = withoutRetry('Sent');
export const createFailureItem = withoutRetry('Created');

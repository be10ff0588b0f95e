import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { failureItem } from '../../../CloudTel/actions/common/failureItem';
import type { NodeError } from '../../../CloudTel/actions/common/nodeError';

/**
 * A failure of the Campaign node as an output item (Continue On Fail): the whole campaign
 * refused, or an input item that cannot be a recipient. Beside the title (`error`,
 * `Message`) and the explanation (`Description`), a refusal of the worker says its HTTP
 * status (`HttpCode`), its code (`ErrorCode`: conflict, unauthorized, ...) and, for a name
 * used with other settings, each setting stored and given (`Differences`), so a workflow can
 * branch on them.
 *
 * n8n 2.x replaces the json of every item that still carries `error` once the node has run
 * with `{error: message}` (WorkflowExecute.normalizeNodeErrors), and its error output is a
 * copy of the item (`{...item, json}`): an own enumerable `error` would survive the copy and
 * lose all of the above. So `error` is put on the item only when there is an error output,
 * which routes items by it, and not enumerable, so that the copy does not carry it.
 */
export function campaignFailure(ctx: IExecuteFunctions, error: NodeError, itemIndex: number): INodeExecutionData {
	const { json, pairedItem } = failureItem(error, itemIndex);
	const httpCode = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
	if (Number.isInteger(httpCode) && httpCode > 0) json.HttpCode = httpCode;
	if (typeof error.context.code === 'string') json.ErrorCode = error.context.code;
	if (Array.isArray(error.context.differences)) json.Differences = error.context.differences;
	const item: INodeExecutionData = { json, pairedItem };
	if (ctx.getNode().onError === 'continueErrorOutput') Object.defineProperty(item, 'error', { value: error, enumerable: false, writable: true, configurable: true });
	return item;
}

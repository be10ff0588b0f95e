import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { failureJson, hasErrorOutput, routed } from '../../../CloudTel/actions/common/failureItem';
import type { NodeError } from '../../../CloudTel/actions/common/nodeError';

/**
 * A failure of the Campaign node as an output item (Continue On Fail): the whole campaign
 * refused, or an input item that cannot be a recipient. Beside the title (`error`,
 * `Message`) and the explanation (`Description`), a refusal of the worker says its HTTP
 * status (`HttpCode`), its code (`ErrorCode`: conflict, unauthorized, ...) and, for a name
 * used with other settings, each setting stored and given (`Differences`), so a workflow can
 * branch on them.
 *
 * Routed to the error output as every failure item of the nodes is (failureItem's `routed`),
 * so that n8n 2.x keeps all of the above; on the main output it carries no `error` either.
 */
export function campaignFailure(
	ctx: IExecuteFunctions,
	error: NodeError,
	itemIndex: number,
): INodeExecutionData {
	const json = failureJson(error);
	const httpCode = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
	if (Number.isInteger(httpCode) && httpCode > 0) json.HttpCode = httpCode;
	if (typeof error.context.code === 'string') json.ErrorCode = error.context.code;
	if (Array.isArray(error.context.differences)) json.Differences = error.context.differences;
	return routed({ json, pairedItem: { item: itemIndex } }, error, hasErrorOutput(ctx));
}

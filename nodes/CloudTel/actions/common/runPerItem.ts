import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { failureItem, hasErrorOutput } from './failureItem';
import { withReadableDates } from './readableDates';
import { asNodeError, type NodeError } from './nodeError';

export interface PerItemOptions {
	failure?: (error: NodeError, itemIndex: number) => INodeExecutionData;
	success?: (json: IDataObject, itemIndex: number) => INodeExecutionData;
}

/**
 * Runs an operation once per input item in two passes: first every item's parameters
 * are read and validated, then the valid ones are sent. So without Continue On Fail a
 * bad item stops the node before any request is made, not halfway through. Output is
 * in input order, every item paired with its input.
 */
export async function runPerItem<T>(
	ctx: IExecuteFunctions,
	prepare: (itemIndex: number) => T | Promise<T>,
	send: (prepared: T, itemIndex: number) => Promise<IDataObject | IDataObject[]>,
	options: PerItemOptions = {},
): Promise<INodeExecutionData[]> {
	const errorOutput = hasErrorOutput(ctx);
	const failure =
		options.failure ??
		((error: NodeError, itemIndex: number) => failureItem(error, itemIndex, errorOutput));
	const success =
		options.success ??
		((json: IDataObject, i: number) => ({
			json: withReadableDates(json),
			pairedItem: { item: i },
		}));
	const count = ctx.getInputData().length;
	const prepared: Array<{ ok: true; value: T } | { ok: false; error: NodeError }> = [];
	for (let i = 0; i < count; i++) {
		try {
			prepared.push({ ok: true, value: await prepare(i) });
		} catch (error) {
			const nodeError = asNodeError(ctx.getNode(), error, i);
			if (!ctx.continueOnFail()) throw nodeError;
			prepared.push({ ok: false, error: nodeError });
		}
	}
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < count; i++) {
		const item = prepared[i];
		if (!item.ok) {
			out.push(failure(item.error, i));
			continue;
		}
		try {
			const result = await send(item.value, i);
			for (const json of Array.isArray(result) ? result : [result]) out.push(success(json, i));
		} catch (error) {
			const nodeError = asNodeError(ctx.getNode(), error, i);
			if (!ctx.continueOnFail()) throw nodeError;
			out.push(failure(nodeError, i));
		}
	}
	return out;
}

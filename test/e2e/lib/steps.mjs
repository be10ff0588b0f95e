// One step of a scenario: a workflow (Manual Trigger, optional input items, the CloudTel
// node) saved in the line's running n8n and run as the editor runs it.
import {
	cloudTel,
	executionError,
	items as itemsNode,
	linear,
	nodeError,
	outputOf,
} from './workflows.mjs';

let counter = 0;

const ran = new WeakMap();

/** resource.operation pairs that have run successfully inside this n8n (one per release) during this run. */
export function ranOperations(ctx) {
	if (!ran.has(ctx.n8n)) ran.set(ctx.n8n, new Set());
	return ran.get(ctx.n8n);
}

/**
 * Runs the CloudTel node once with `parameters` over `input` (plain objects, one per item;
 * none means the trigger's single empty item). Returns the execution, the node's main and
 * error outputs (as JSON objects, with the raw items kept), and any node/run error.
 * `credential` ({id, name} of an imported credential) replaces the run's own.
 */
export async function runCloudTel(
	ctx,
	parameters,
	{ input, onError, name = 'CloudTel', timeoutMs, extra, credential = ctx.credential } = {},
) {
	const nodes = [];
	if (input) nodes.push(itemsNode('Input', input));
	nodes.push(cloudTel(name, parameters, { credential, onError, extra }));
	const wf = linear(`step ${++counter}: ${parameters.resource}.${parameters.operation}`, ...nodes);
	await ctx.n8n.importWorkflow(wf);
	const execution = await ctx.n8n.execute(wf.id, { timeoutMs });
	const main = outputOf(execution, name, 0) ?? [];
	const errors = onError === 'continueErrorOutput' ? (outputOf(execution, name, 1) ?? []) : [];
	if (execution.status === 'success' && main.some((item) => !item.error))
		ranOperations(ctx).add(`${parameters.resource}.${parameters.operation}`);
	return {
		execution,
		status: execution.status,
		items: main,
		json: main.map((item) => item.json),
		errorItems: errors,
		error: nodeError(execution, name) ?? executionError(execution),
	};
}

/** A resource locator value "By SID". */
export const bySid = (value) => ({ __rl: true, mode: 'id', value });

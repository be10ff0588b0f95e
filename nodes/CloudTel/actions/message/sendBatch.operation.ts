import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import {
	BATCH_MAX_MESSAGES,
	isBatchErrorItem,
	isMessage,
	isPlainObject,
	requests,
} from '../../../../api';
import { apiRequest, CREDENTIAL_NAME } from '../../transport';
import { providerError } from '../../transport/providerError';
import { hasErrorOutput, outcomes } from '../common/failureItem';
import { includeInputFieldsField } from '../common/includeInputFields';
import { asNodeError, type NodeError } from '../common/nodeError';
import { simplifyFields } from '../common/simplify';
import { messageFields } from './messageFields';
import { messageReader, type PreparedMessage } from './readMessage';
import { SIMPLIFIED_MESSAGE_FIELDS } from './simplifiedMessage';

const properties: INodeProperties[] = [
	...messageFields,
	{
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: BATCH_MAX_MESSAGES },
		// A literal, as n8n's scan requires; a test holds it equal to BATCH_MAX_MESSAGES.
		default: 1000,
		description: `How many messages go in one BatchMessages request (at most ${BATCH_MAX_MESSAGES})`,
	},
	includeInputFieldsField,
	...simplifyFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['message'], operation: ['sendBatch'] } },
	properties,
);

interface Pending extends PreparedMessage {
	itemIndex: number;
}

/** Batch answers are a bare array; a wrapper is tolerated, as the real provider may add one. */
function readElements(body: unknown): unknown[] {
	if (Array.isArray(body)) return body;
	if (isPlainObject(body))
		for (const key of ['Messages', 'Results'])
			if (Array.isArray(body[key])) return body[key] as unknown[];
	return [];
}

/** Each message of a failed request gets its own copy of the error, with its own index. */
function errorForItem(ctx: IExecuteFunctions, error: NodeError, p: Pending): NodeError {
	const itemIndex = p.itemIndex;
	// A refusal answered for the whole request is told again for each of its messages; a
	// network failure or another server's page keeps its own words.
	if (error instanceof NodeApiError && error.httpCode && error.context.notCloudTel === undefined) {
		return providerError(ctx.getNode(), error.errorResponse, {
			statusCode: Number(error.httpCode),
			itemIndex,
			sent: p.body,
		});
	}
	return new NodeOperationError(ctx.getNode(), error.message, {
		itemIndex,
		description: error.description ?? undefined,
	});
}

function chunksByProperty(pending: Pending[], size: number): Pending[][] {
	const byProperty = new Map<string, Pending[]>();
	for (const p of pending) {
		const group = byProperty.get(p.propertySid);
		if (group) group.push(p);
		else byProperty.set(p.propertySid, [p]);
	}
	const out: Pending[][] = [];
	for (const group of byProperty.values())
		for (let k = 0; k < group.length; k += size) out.push(group.slice(k, k + size));
	return out;
}

/**
 * Turns the input items into BatchMessages requests and gives every item its own output:
 * the Message the provider accepted, or its own error. Items are validated first, so
 * without Continue On Fail a bad item stops the node before anything is sent; once a
 * request has been accepted the node no longer fails as a whole, because failing would
 * hide which messages went out and a re-run would send them twice.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const count = this.getInputData().length;
	const size = Math.min(
		Math.max(Math.floor(this.getNodeParameter('batchSize', 0, BATCH_MAX_MESSAGES) as number), 1),
		BATCH_MAX_MESSAGES,
	);
	const results: INodeExecutionData[] = new Array(count);
	const pending: Pending[] = [];
	const readMessage = messageReader(this, await this.getCredentials(CREDENTIAL_NAME));
	const outcome = outcomes(this, 'Sent', SIMPLIFIED_MESSAGE_FIELDS);
	const { success } = outcome;
	// Counted as made: with Include Input Fields, an input's own `Sent: false` is not a failure.
	let failed = 0;
	const failure: typeof outcome.failure = (error, itemIndex) => {
		failed++;
		return outcome.failure(error, itemIndex);
	};
	const bad: Array<{ error: NodeError; itemIndex: number }> = [];
	for (let i = 0; i < count; i++) {
		try {
			pending.push({ ...readMessage(i), itemIndex: i });
		} catch (error) {
			const nodeError = asNodeError(this.getNode(), error, i);
			if (!this.continueOnFail()) bad.push({ error: nodeError, itemIndex: i });
			else results[i] = failure(nodeError, i);
		}
	}
	// Every bad item at once, not the first of them run after run.
	if (bad.length === 1) throw bad[0].error;
	if (bad.length > 1) throw everyBadItem(this, bad, count);

	let accepted = false;
	for (const chunk of chunksByProperty(pending, size)) {
		let body: unknown;
		try {
			body = await apiRequest.call(
				this,
				requests.sendBatch(
					chunk[0].propertySid,
					chunk.map((p) => p.body),
				),
				chunk[0].itemIndex,
			);
		} catch (error) {
			const nodeError = asNodeError(this.getNode(), error, chunk[0].itemIndex);
			if (!accepted && !this.continueOnFail()) throw nodeError;
			for (const p of chunk)
				results[p.itemIndex] = failure(errorForItem(this, nodeError, p), p.itemIndex);
			continue;
		}
		accepted = true;
		const elements = readElements(body);
		chunk.forEach((p, k) => {
			const element = elements[k];
			if (isMessage(element))
				results[p.itemIndex] = success(element as unknown as IDataObject, p.itemIndex);
			else if (isBatchErrorItem(element))
				results[p.itemIndex] = failure(
					providerError(this.getNode(), element, { itemIndex: p.itemIndex, sent: p.body }),
					p.itemIndex,
				);
			else {
				const missing = new NodeOperationError(
					this.getNode(),
					`CloudTel returned no result for this message (element ${k} of ${elements.length})`,
					{ itemIndex: p.itemIndex },
				);
				results[p.itemIndex] = failure(missing, p.itemIndex);
			}
		});
	}
	hintAtFailures(this, failed, results.length);
	return results;
}

/** At most this many bad items are listed one by one in the node's error. */
export const BAD_ITEMS_LISTED = 20;

/** What tells an item apart for its owner: its ExternalId, its number, or its first field. */
function keyOf(json: IDataObject): string {
	const keys = Object.keys(json);
	const pick = (name: string) => keys.find((k) => k.toLowerCase() === name);
	const key =
		pick('externalid') ?? pick('to') ?? pick('phone') ?? pick('mobile') ?? pick('id') ?? keys[0];
	if (key === undefined) return 'no fields';
	const value = json[key];
	const shown =
		typeof value === 'object' && value !== null
			? JSON.stringify(value).slice(0, 40)
			: String(value).slice(0, 40);
	return `${key} "${shown}"`;
}

/**
 * One error for every item that cannot be sent, before anything is sent: each by its place in
 * the input counted from 1, as the input panel shows it, with a field that tells it apart.
 */
function everyBadItem(
	ctx: IExecuteFunctions,
	bad: Array<{ error: NodeError; itemIndex: number }>,
	total: number,
): NodeOperationError {
	const input = ctx.getInputData();
	const lines = bad.slice(0, BAD_ITEMS_LISTED).map(({ error, itemIndex }) => {
		const detail = error.description ? ` (${String(error.description).split('\n')[0]})` : '';
		return `Item ${itemIndex + 1} (${keyOf(input[itemIndex]?.json ?? {})}): ${error.message}${detail}`;
	});
	if (bad.length > BAD_ITEMS_LISTED) lines.push(`... and ${bad.length - BAD_ITEMS_LISTED} more.`);
	lines.push(
		'Nothing was sent. Fix these items, or set On Error to "Continue (using error output)" to send the others and route these apart.',
	);
	const error = new NodeOperationError(
		ctx.getNode(),
		`${bad.length} of ${total} items cannot be sent: items ${bad
			.slice(0, 5)
			.map((b) => b.itemIndex + 1)
			.join(', ')}${bad.length > 5 ? ', ...' : ''}`,
		{
			itemIndex: bad[0].itemIndex,
			description: lines.join('\n'),
		},
	);
	error.context.badItems = bad.slice(0, BAD_ITEMS_LISTED).map((b) => b.itemIndex + 1);
	return error;
}

/**
 * Without an error output, refused messages sit among the sent ones in the main output,
 * easy to miss: n8n then shows a hint above the output saying how many.
 */
function hintAtFailures(ctx: IExecuteFunctions, failed: number, total: number): void {
	if (hasErrorOutput(ctx)) return;
	if (failed === 0) return;
	ctx.addExecutionHints({
		message: `${failed} of ${total} messages were not sent; their items carry Sent: false and the reason. Set On Error to "Continue (using error output)" to route them apart.`,
		location: 'outputPane',
	});
}

import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { isWorkerApiErrorBody } from '../../../api';
import { maskSecret } from '../actions/common/maskSecret';
import { n8nWording } from './n8nWording';

const HINTS: Record<string, string> = {
	unauthorized:
		"Check the API Token of the CloudTel Worker API credential: it must be the worker's server.apiToken.",
	conflict:
		'A campaign name is used once: give the campaign a new name, or the settings it was created with.',
	page_conflict:
		'The recipients differ from those this campaign already holds under the same page: a re-run must hand over the same items in the same order, or use a new campaign name.',
	pages_missing:
		'Some pages never reached the worker: run the node again (pages already stored are kept).',
	too_large:
		'A page of recipients was larger than the worker accepts: fewer or shorter columns per recipient.',
};

function show(value: unknown): string {
	return value === null || value === undefined
		? '(none)'
		: typeof value === 'string'
			? `"${value}"`
			: JSON.stringify(value);
}

/**
 * A refusal of the worker's campaign API (`{"error": {code, message, field?, differences?}}`)
 * as a NodeApiError: the worker's message as the title, the field, each setting that
 * differs and what to do as the description, the code and field kept in `context`.
 */
export function workerError(
	node: INode,
	statusCode: number,
	body: unknown,
	itemIndex?: number,
): NodeApiError {
	if (!isWorkerApiErrorBody(body)) {
		const text =
			typeof body === 'string' ? body.slice(0, 300) : JSON.stringify(body ?? '').slice(0, 300);
		return new NodeApiError(node, { statusCode, body: text } as JsonObject, {
			message: `The CloudTel worker answered HTTP ${statusCode}`,
			description:
				statusCode === 404
					? 'No campaign API at this URL: the worker serves /api only when its config has server.apiToken; check the Worker URL of the credential.'
					: text || undefined,
			httpCode: String(statusCode),
			itemIndex,
		});
	}
	const { error } = body;
	const lines: string[] = [];
	// The field once: a difference or a problem that names it says it already.
	if (
		error.field &&
		!error.differences?.length &&
		!error.problems?.some((p) => p.field === error.field)
	)
		lines.push(`Field: ${error.field}`);
	for (const p of error.problems ?? [])
		if (p.message !== error.message)
			lines.push(p.message.startsWith(`${p.field}:`) ? p.message : `${p.field}: ${p.message}`);
	const differences = error.differences?.map((d) =>
		d.setting === 'events' ? { ...d, stored: maskSecret(d.stored), given: maskSecret(d.given) } : d,
	);
	for (const d of differences ?? [])
		lines.push(`${d.setting}: stored ${show(d.stored)}, given ${show(d.given)}`);
	if (error.missing?.length) lines.push(`Missing pages: ${error.missing.join(', ')}`);
	if (HINTS[error.code]) lines.push(HINTS[error.code]);
	// n8n fills a missing description from this response: in the node's words too.
	const response = {
		error: {
			...error,
			message: n8nWording(error.message),
			...(differences ? { differences } : {}),
		},
	};
	const apiError = new NodeApiError(node, response as unknown as JsonObject, {
		message: `CloudTel worker: ${n8nWording(error.message)}`,
		description: n8nWording(lines.join('\n')) || undefined,
		httpCode: String(statusCode),
		itemIndex,
	});
	apiError.context.code = error.code;
	if (error.field) apiError.context.field = error.field;
	if (differences) apiError.context.differences = differences;
	return apiError;
}

import { isBatchErrorItem, isMessage, type BatchResultItem } from '../../../api';
import type { SettledRow } from '../storage/ledger';
import { parseExternalId } from '../rows/externalId';

/** The row an answer's ExternalId names in this campaign, whatever variant it carries. */
function lineOf(campaign: string, id: string): number | undefined {
	const parsed = parseExternalId(id);
	return parsed?.campaign === campaign ? parsed.line : undefined;
}

/**
 * Pairs a batch answer with the rows sent. One element per message in request order is
 * the contract; when the answer disagrees (a different count, an ExternalId out of place)
 * elements are matched by ExternalId, and a row no element answers for is uncertain.
 */
export function settleAnswer(
	campaign: string,
	lines: number[],
	results: BatchResultItem[],
): SettledRow[] {
	const inOrder =
		results.length === lines.length &&
		results.every(
			(r, i) => !isMessage(r) || !r.ExternalId || lineOf(campaign, r.ExternalId) === lines[i],
		);
	if (inOrder) return lines.map((line, i) => settleOne(line, results[i]));
	const byLine = new Map<number, BatchResultItem>();
	for (const r of results)
		if (isMessage(r) && r.ExternalId) {
			const line = lineOf(campaign, r.ExternalId);
			if (line !== undefined) byLine.set(line, r);
		}
	return lines.map((line) => {
		const r = byLine.get(line);
		return r
			? settleOne(line, r)
			: { line, status: 'uncertain', message: 'the batch answer did not account for this message' };
	});
}

function settleOne(line: number, r: BatchResultItem): SettledRow {
	if (isMessage(r)) return { line, status: 'accepted', messageSid: r.MessageSid };
	if (isBatchErrorItem(r)) {
		const fields = (r.Errors ?? []).map((e) => e.FieldName).filter((f) => f);
		const tail =
			fields.length > 0 && !r.Message.includes(fields[0]) ? ` (fields: ${fields.join(', ')})` : '';
		return {
			line,
			status: 'rejected',
			errorCode: r.ErrorCode,
			message: (r.Message || r.ErrorCode) + tail,
		};
	}
	return {
		line,
		status: 'uncertain',
		message: `the batch answer for this message is neither a message nor an error: ${JSON.stringify(r).slice(0, 200)}`,
	};
}

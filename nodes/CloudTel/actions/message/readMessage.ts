import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ErrorCodes, systemContext, validatePathSid, validateSendMessage, violation, type SendMessageRequest } from '../../../../api';
import { assertValid } from '../common/assertValid';
import { compact } from '../common/compact';
import { toUnixSeconds } from '../common/unixSeconds';

export interface PreparedMessage {
	propertySid: string;
	body: SendMessageRequest;
}

/**
 * One item's message, validated by api/ before anything is sent. Blank fields are left
 * out (a blank From means a leased number), so expressions that map empty columns work.
 */
export function readMessage(ctx: IExecuteFunctions, itemIndex: number): PreparedMessage {
	const propertySid = String(ctx.getNodeParameter('propertySid', itemIndex, '')).trim();
	const { Schedule, ...options } = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	// Shown only while From is blank; if From comes from an expression and is not blank,
	// api/ refuses these fields by name rather than the node dropping them unseen.
	const reply = ctx.getNodeParameter('replyHandling', itemIndex, {}) as IDataObject;
	const body = compact<SendMessageRequest>({
		From: ctx.getNodeParameter('from', itemIndex, ''),
		To: ctx.getNodeParameter('to', itemIndex, ''),
		Text: ctx.getNodeParameter('text', itemIndex, ''),
		...options,
		...reply,
	});
	const violations = validatePathSid('PropertySid', propertySid);
	if (Schedule !== undefined && Schedule !== '' && Schedule !== null) {
		const seconds = toUnixSeconds(Schedule, ctx.getTimezone());
		if (seconds === undefined) violations.push(violation('Schedule', ErrorCodes.InvalidType, `Schedule must be a date and time (got "${String(Schedule)}").`));
		else body.Schedule = seconds;
	}
	violations.push(...validateSendMessage(body, systemContext()));
	assertValid(ctx.getNode(), violations, itemIndex);
	return { propertySid, body };
}

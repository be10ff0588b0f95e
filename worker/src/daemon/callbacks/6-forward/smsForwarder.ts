import { isBatchErrorItem, TEXT_MAX_CHARACTERS, type SendMessageRequest } from '../../../../../api';
import type { BatchClient } from '../../../provider/batchClient';
import type { ForwardIdentity, ForwardOutcome, Forwarder } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';

/** "+61412345678 replied (weekly, row 12): YES", cut to what one message may hold. */
export function forwardText(payload: ForwardPayload): string {
	if (payload.text !== undefined) return payload.text;
	const { reply, campaign, row } = payload.context;
	const origin = campaign ? ` (${campaign}${row !== undefined ? `, row ${row}` : ''})` : '';
	const text = `${reply.From} replied${origin}: ${reply.Text}`;
	return [...text].slice(0, TEXT_MAX_CHARACTERS).join('');
}

/**
 * Forwards replies by SMS through the provider's API. It goes as a batch of one through
 * the campaign engine's client, which already knows which failures left the request
 * unsent (safe to retry) and which may have reached the provider (not safe: uncertain).
 */
export class SmsForwarder implements Forwarder {
	constructor(private readonly client: BatchClient) {}

	async send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome> {
		const { action, context } = payload;
		if (action.type !== 'forwardSms')
			return { kind: 'failed', reason: `not an SMS forward: ${action.type}` };
		const message: SendMessageRequest = {
			To: action.to,
			Text: forwardText(payload),
			DeliveryReceipt: false,
			ExternalId: `forward:${identity.key}`,
		};
		if (action.from !== undefined) message.From = action.from;
		const outcome = await this.client.send(action.property ?? context.reply.PropertySid, [message]);
		switch (outcome.kind) {
			case 'answered': {
				const item = outcome.results[0];
				if (item === undefined)
					return {
						kind: 'uncertain',
						reason: 'the provider answered with no result for the message',
					};
				if (isBatchErrorItem(item))
					return { kind: 'failed', reason: `${item.ErrorCode}: ${item.Message}` };
				return { kind: 'sent' };
			}
			case 'refused':
				return { kind: 'failed', reason: `HTTP ${outcome.status}: ${outcome.detail}` };
			case 'retry':
				return { kind: 'retry', reason: outcome.reason, retryAfterMs: outcome.retryAfterMs };
			case 'unsent':
				// It never left, and resending to the same address cannot reach the provider either.
				return { kind: 'failed', reason: `not sent: ${outcome.reason}` };
			case 'lost':
				return { kind: 'uncertain', reason: outcome.reason };
		}
	}

	async close(): Promise<void> {
		await this.client.close();
	}
}

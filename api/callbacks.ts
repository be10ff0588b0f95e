import { ErrorCodes } from './errorCodes';
import { isPlainObject } from './fields';
import type { DeliveryReceiptCallback, ReceiptStatus, ReplyCallback } from './types/callbacks';
import { violation, type Violation } from './violation';

export type CallbackEvent =
	| { kind: 'receipt'; data: DeliveryReceiptCallback }
	| { kind: 'reply'; data: ReplyCallback };

export type ParsedCallback =
	| { ok: true; event: CallbackEvent }
	| { ok: false; violations: Violation[] };

const RECEIPT_STATUSES: readonly ReceiptStatus[] = ['Delivered', 'Failed'];

function text(raw: Record<string, unknown>, key: string): string {
	const v = raw[key];
	if (Array.isArray(v)) return v.length > 0 ? String(v[v.length - 1]) : '';
	return v === undefined || v === null ? '' : String(v);
}

/** Timestamps arrive as numbers (POST) or digit strings (GET query). */
function seconds(raw: Record<string, unknown>): number | undefined {
	const t = text(raw, 'Timestamp');
	return /^\d{1,12}$/.test(t) ? Number(t) : undefined;
}

/** A reply carries OriginalMessageSid or Text; a receipt carries Status. */
export function callbackKind(raw: Record<string, unknown>): CallbackEvent['kind'] | undefined {
	if ('OriginalMessageSid' in raw || 'Text' in raw) return 'reply';
	if ('Status' in raw) return 'receipt';
	return undefined;
}

/**
 * Reads a provider callback from a JSON body or from GET query parameters into one
 * typed event. Extra fields are ignored, as the real provider may add some.
 */
export function parseCallback(raw: unknown): ParsedCallback {
	if (!isPlainObject(raw))
		return {
			ok: false,
			violations: [
				violation(
					'',
					ErrorCodes.InvalidType,
					'A callback must be a JSON object or query parameters.',
				),
			],
		};
	const kind = callbackKind(raw);
	const out: Violation[] = [];
	if (!text(raw, 'MessageSid'))
		out.push(violation('MessageSid', ErrorCodes.FieldRequired, 'MessageSid is required.'));
	if (kind === undefined) {
		out.push(
			violation(
				'Status',
				ErrorCodes.FieldRequired,
				'A callback needs Status (a delivery receipt) or Text (a reply).',
			),
		);
		return { ok: false, violations: out };
	}
	const timestamp = seconds(raw);
	if (raw.Timestamp !== undefined && timestamp === undefined)
		out.push(violation('Timestamp', ErrorCodes.InvalidType, 'Timestamp must be Unix seconds.'));
	const common = {
		MessageSid: text(raw, 'MessageSid'),
		AccountSid: text(raw, 'AccountSid'),
		PropertySid: text(raw, 'PropertySid'),
		From: text(raw, 'From'),
		To: text(raw, 'To'),
		ExternalId: text(raw, 'ExternalId'),
		Timestamp: timestamp ?? 0,
	};
	if (kind === 'receipt') {
		const status = text(raw, 'Status') as ReceiptStatus;
		if (!RECEIPT_STATUSES.includes(status))
			out.push(violation('Status', ErrorCodes.OutOfRange, 'Status must be Delivered or Failed.'));
		if (out.length > 0) return { ok: false, violations: out };
		return {
			ok: true,
			event: { kind, data: { ...common, Status: status, ErrorCode: text(raw, 'ErrorCode') } },
		};
	}
	if (!text(raw, 'From'))
		out.push(violation('From', ErrorCodes.FieldRequired, 'From (the replier) is required.'));
	if (out.length > 0) return { ok: false, violations: out };
	return {
		ok: true,
		event: {
			kind,
			data: {
				...common,
				OriginalMessageSid: text(raw, 'OriginalMessageSid'),
				Text: text(raw, 'Text'),
			},
		},
	};
}

/** Receivers treat a repeated MessageSid + event as a duplicate (contract.md). */
export function callbackEventKey(event: CallbackEvent): string {
	return `${event.kind}:${event.data.MessageSid}`;
}

/** GET callbacks carry the same fields as query parameters. */
export function callbackQuery(
	payload: DeliveryReceiptCallback | ReplyCallback,
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(payload)) out[k] = String(v);
	return out;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	callbackEventKey,
	callbackKind,
	callbackQuery,
	parseCallback,
	type DeliveryReceiptCallback,
	type ReplyCallback,
} from '../../../api';
import { pairs } from './helpers';

const RECEIPT: DeliveryReceiptCallback = {
	MessageSid: 'm-1',
	AccountSid: 'acc',
	PropertySid: 'prop',
	From: '+61400000000',
	To: '+61412345678',
	Status: 'Delivered',
	ErrorCode: '',
	ExternalId: 'row-1',
	Timestamp: 1_700_000_000,
};

const REPLY: ReplyCallback = {
	MessageSid: 'm-2',
	OriginalMessageSid: 'm-1',
	AccountSid: 'acc',
	PropertySid: 'prop',
	From: '+61412345678',
	To: '+61400000000',
	Text: 'STOP',
	ExternalId: 'row-1',
	Timestamp: 1_700_000_100,
};

/** What a GET callback looks like once a web server has parsed its query string. */
const asQuery = (payload: object) =>
	Object.fromEntries(new URLSearchParams(callbackQuery(payload as DeliveryReceiptCallback)));

describe('parseCallback: delivery receipts', () => {
	it('reads a JSON (POST) receipt', () => {
		expect(parseCallback(RECEIPT)).toEqual({ ok: true, event: { kind: 'receipt', data: RECEIPT } });
	});

	it('reads a query-string (GET) receipt, every value a string', () => {
		const query = asQuery(RECEIPT);
		expect(query.Timestamp).toBe('1700000000');
		expect(parseCallback(query)).toEqual({ ok: true, event: { kind: 'receipt', data: RECEIPT } });
	});

	it('reads a Failed receipt with its ErrorCode', () => {
		const failed = { ...RECEIPT, Status: 'Failed' as const, ErrorCode: 'UNDELIVERABLE' };
		expect(parseCallback(asQuery(failed))).toEqual({
			ok: true,
			event: { kind: 'receipt', data: failed },
		});
	});

	it('ignores extra fields and fills absent optional ones with empty values', () => {
		const result = parseCallback({ MessageSid: 'm', Status: 'Delivered', Extra: 'x' });
		expect(result).toEqual({
			ok: true,
			event: {
				kind: 'receipt',
				data: {
					MessageSid: 'm',
					AccountSid: '',
					PropertySid: '',
					From: '',
					To: '',
					ExternalId: '',
					Timestamp: 0,
					Status: 'Delivered',
					ErrorCode: '',
				},
			},
		});
	});

	it('takes the last of repeated query values', () => {
		const result = parseCallback({
			MessageSid: ['a', 'b'],
			Status: 'Delivered',
			Timestamp: ['1', '2'],
		});
		expect(result.ok && result.event.data).toMatchObject({ MessageSid: 'b', Timestamp: 2 });
	});

	it.each([
		['Status not Delivered or Failed', { ...RECEIPT, Status: 'Sent' }, ['Status OUT_OF_RANGE']],
		['Status in lower case', { ...RECEIPT, Status: 'delivered' }, ['Status OUT_OF_RANGE']],
		['no MessageSid', { ...RECEIPT, MessageSid: '' }, ['MessageSid FIELD_REQUIRED']],
		['a fractional Timestamp', { ...RECEIPT, Timestamp: 1.5 }, ['Timestamp INVALID_TYPE']],
		['a negative Timestamp', { ...RECEIPT, Timestamp: -1 }, ['Timestamp INVALID_TYPE']],
		[
			'an ISO Timestamp',
			{ ...RECEIPT, Timestamp: '2024-01-01T00:00:00Z' },
			['Timestamp INVALID_TYPE'],
		],
		[
			'all three at once',
			{ ...RECEIPT, MessageSid: undefined, Status: 'Queued', Timestamp: 'soon' },
			['MessageSid FIELD_REQUIRED', 'Status OUT_OF_RANGE', 'Timestamp INVALID_TYPE'],
		],
	])('refuses %s, listing every problem', (_label, raw, expected) => {
		const result = parseCallback(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(pairs(result.violations)).toEqual(expected);
	});
});

describe('parseCallback: replies', () => {
	it('reads a JSON (POST) reply', () => {
		expect(parseCallback(REPLY)).toEqual({ ok: true, event: { kind: 'reply', data: REPLY } });
	});

	it('reads a query-string (GET) reply', () => {
		expect(parseCallback(asQuery(REPLY))).toEqual({
			ok: true,
			event: { kind: 'reply', data: REPLY },
		});
	});

	it('keeps text exactly, emoji and newlines included', () => {
		const reply = { ...REPLY, Text: 'Yes 👍\nsee you & bye=1' };
		expect(parseCallback(asQuery(reply))).toEqual({
			ok: true,
			event: { kind: 'reply', data: reply },
		});
	});

	it('an empty Text still marks a reply', () => {
		const result = parseCallback({ ...REPLY, OriginalMessageSid: undefined, Text: '' });
		expect(result.ok && result.event.kind).toBe('reply');
	});

	it.each([
		['no From', { ...REPLY, From: '' }, ['From FIELD_REQUIRED']],
		[
			'no MessageSid and no From',
			{ ...REPLY, MessageSid: '', From: '' },
			['From FIELD_REQUIRED', 'MessageSid FIELD_REQUIRED'],
		],
		[
			'a bad Timestamp too',
			{ ...REPLY, From: undefined, Timestamp: 'x' },
			['From FIELD_REQUIRED', 'Timestamp INVALID_TYPE'],
		],
	])('refuses %s, listing every problem', (_label, raw, expected) => {
		const result = parseCallback(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(pairs(result.violations)).toEqual(expected);
	});
});

describe('parseCallback: neither kind', () => {
	it.each([
		['no Status and no Text', { MessageSid: 'm' }, ['Status FIELD_REQUIRED']],
		['nothing at all', {}, ['MessageSid FIELD_REQUIRED', 'Status FIELD_REQUIRED']],
		['not an object', 'MessageSid=m', [' INVALID_TYPE']],
		['null', null, [' INVALID_TYPE']],
		['an array', [RECEIPT], [' INVALID_TYPE']],
	])('%s', (_label, raw, expected) => {
		const result = parseCallback(raw);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(pairs(result.violations)).toEqual(expected);
	});

	it.each([
		[{ Status: 'Delivered' }, 'receipt'],
		[{ Text: 'hi' }, 'reply'],
		[{ OriginalMessageSid: 'm' }, 'reply'],
		[{ Status: 'Received', Text: 'hi' }, 'reply'],
		[{ MessageSid: 'm' }, undefined],
	])('callbackKind(%j) = %s', (raw, kind) => {
		expect(callbackKind(raw)).toBe(kind);
	});
});

describe('callbackEventKey: a repeated MessageSid + event is a duplicate', () => {
	const key = (raw: unknown) => {
		const r = parseCallback(raw);
		if (!r.ok) throw new Error('expected a valid callback');
		return callbackEventKey(r.event);
	};

	it('is the same for a POST and a GET of the same event', () => {
		expect(key(RECEIPT)).toBe(key(asQuery(RECEIPT)));
		expect(key(REPLY)).toBe(key(asQuery(REPLY)));
	});

	it('is the same for a retried attempt with a later Timestamp', () => {
		expect(key({ ...RECEIPT, Timestamp: RECEIPT.Timestamp + 30 })).toBe(key(RECEIPT));
	});

	it('differs between a receipt and a reply sharing a MessageSid, and between messages', () => {
		expect(key({ ...REPLY, MessageSid: RECEIPT.MessageSid })).not.toBe(key(RECEIPT));
		expect(key({ ...RECEIPT, MessageSid: 'm-9' })).not.toBe(key(RECEIPT));
	});

	it('reads kind:MessageSid', () => {
		expect(key(RECEIPT)).toBe('receipt:m-1');
		expect(key(REPLY)).toBe('reply:m-2');
	});
});

describe('callbackQuery and parseCallback round-trip', () => {
	// Well-formed text only: a query string is UTF-8, which cannot carry a lone surrogate.
	const text = fc.string({ unit: 'grapheme', maxLength: 20 });
	const nonEmpty = fc
		.string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
		.filter((s) => s.trim() !== '');
	const timestamp = fc.integer({ min: 0, max: 99_999_999_999 });

	it('any receipt survives GET encoding', () => {
		const receipt = fc.record({
			MessageSid: nonEmpty,
			AccountSid: text,
			PropertySid: text,
			From: text,
			To: text,
			Status: fc.constantFrom('Delivered' as const, 'Failed' as const),
			ErrorCode: text,
			ExternalId: text,
			Timestamp: timestamp,
		});
		fc.assert(
			fc.property(receipt, (r) => {
				expect(parseCallback(asQuery(r))).toEqual({
					ok: true,
					event: { kind: 'receipt', data: r },
				});
				expect(parseCallback(r)).toEqual({ ok: true, event: { kind: 'receipt', data: r } });
			}),
		);
	});

	it('any reply survives GET encoding', () => {
		const reply = fc.record({
			MessageSid: nonEmpty,
			OriginalMessageSid: text,
			AccountSid: text,
			PropertySid: text,
			From: nonEmpty,
			To: text,
			Text: text,
			ExternalId: text,
			Timestamp: timestamp,
		});
		fc.assert(
			fc.property(reply, (r) => {
				expect(parseCallback(asQuery(r))).toEqual({ ok: true, event: { kind: 'reply', data: r } });
				expect(parseCallback(r)).toEqual({ ok: true, event: { kind: 'reply', data: r } });
			}),
		);
	});
});

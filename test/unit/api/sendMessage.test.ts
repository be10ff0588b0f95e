import { describe, expect, it } from 'vitest';
import { validateSendMessage } from '../../../api';
import { NOW, SEND, ctx, pairs } from './helpers';

describe('validateSendMessage', () => {
	it('accepts the minimal message and a full one', () => {
		expect(validateSendMessage(SEND, ctx)).toEqual([]);
		expect(
			validateSendMessage(
				{
					From: '+61412345678',
					To: '+61498765432',
					Text: 'Your code is 1234',
					Schedule: NOW + 3600,
					DeliveryReceipt: false,
					DeliveryReceiptWebhookUri: 'https://example.com/r',
					DeliveryReceiptWebhookMethod: 'POST',
					ExternalId: 'row-17',
				},
				ctx,
			),
		).toEqual([]);
	});

	it('requires To and Text, and reports both', () => {
		expect(pairs(validateSendMessage({}, ctx))).toEqual([
			'Text FIELD_REQUIRED',
			'To FIELD_REQUIRED',
		]);
		expect(pairs(validateSendMessage({ To: '', Text: '' }, ctx))).toEqual([
			'Text FIELD_REQUIRED',
			'To FIELD_REQUIRED',
		]);
		expect(pairs(validateSendMessage({ To: null, Text: null }, ctx))).toEqual([
			'Text FIELD_REQUIRED',
			'To FIELD_REQUIRED',
		]);
	});

	it('a To that is not E.164 is INVALID_PHONENUMBER_FORMAT on To, as the provider says', () => {
		expect(validateSendMessage({ ...SEND, To: '0412345678' }, ctx)).toEqual([
			expect.objectContaining({ FieldName: 'To', ErrorCode: 'INVALID_PHONENUMBER_FORMAT' }),
		]);
	});

	it('returns every violation at once, one per bad field', () => {
		const body = {
			From: 'Not-Alpha!',
			To: '0412',
			Text: 'a'.repeat(1601),
			Schedule: NOW + 15 * 24 * 3600,
			DeliveryReceipt: 'yes',
			DeliveryReceiptWebhookUri: 'ftp://x',
			DeliveryReceiptWebhookMethod: 'PUT',
			ExternalId: 7,
		};
		expect(pairs(validateSendMessage(body, ctx))).toEqual([
			'DeliveryReceipt INVALID_TYPE',
			'DeliveryReceiptWebhookMethod INVALID_METHOD',
			'DeliveryReceiptWebhookUri INVALID_URI',
			'ExternalId INVALID_TYPE',
			'From INVALID_SENDER_ID',
			'Schedule SCHEDULE_TOO_FAR',
			'Text INVALID_TEXT_LENGTH',
			'To INVALID_PHONENUMBER_FORMAT',
		]);
	});

	it.each([
		['To', 61412345678],
		['To', ['+61412345678']],
		['Text', 42],
		['Text', { body: 'hi' }],
		['Schedule', 1.5],
		['Schedule', '1700000000'],
		['DeliveryReceipt', 'true'],
		['DeliveryReceipt', 1],
		['ExternalId', 17],
	])('%s = %j is INVALID_TYPE', (field, value) => {
		expect(pairs(validateSendMessage({ ...SEND, [field]: value }, ctx))).toEqual([
			`${field} INVALID_TYPE`,
		]);
	});

	it.each([[null], [[SEND]], ['{"To":"+61412345678"}'], [42]])(
		'a body that is not an object (%j) is one INVALID_TYPE',
		(body) => {
			expect(pairs(validateSendMessage(body, ctx))).toEqual([' INVALID_TYPE']);
		},
	);

	it('extra fields are tolerated in a send (not a merge patch)', () => {
		expect(validateSendMessage({ ...SEND, Unknown: 1 }, ctx)).toEqual([]);
	});

	it('every violation carries a message naming its field', () => {
		const v = validateSendMessage({ To: '0412', Text: '', From: 'x!' }, ctx);
		expect(v).toHaveLength(3);
		for (const each of v) expect(each.Message).toContain(each.FieldName);
	});
});

import { describe, expect, it } from 'vitest';
import {
	BATCH_MAX_MESSAGES,
	batchErrorItem,
	isBatchErrorItem,
	validateBatchEnvelope,
	validateSendMessage,
} from '../../../api';
import { SEND, ctx } from './helpers';

const messages = (n: number) => Array.from({ length: n }, () => ({ ...SEND }));

describe('batch envelope: {Messages: [...]} with 1 to 1000 elements', () => {
	it('the maximum is 1000', () => {
		expect(BATCH_MAX_MESSAGES).toBe(1000);
	});

	it.each([
		[1, undefined],
		[2, undefined],
		[1000, undefined],
		[0, 'BATCH_EMPTY'],
		[1001, 'BATCH_TOO_LARGE'],
	])('%i messages -> %s', (n, code) => {
		const status = validateBatchEnvelope({ Messages: messages(n) });
		if (code === undefined) expect(status).toBeUndefined();
		else {
			expect(status).toMatchObject({
				ErrorCode: code,
				Errors: [{ ErrorCode: code, FieldName: 'Messages' }],
			});
			expect(status?.Message).toBeTruthy();
		}
	});

	it('the too-large message says how many there were', () => {
		expect(validateBatchEnvelope({ Messages: messages(1001) })?.Message).toMatch(/1000.*1001/);
	});

	it.each([
		[{}, 'FIELD_REQUIRED'],
		[null, 'FIELD_REQUIRED'],
		[[SEND], 'FIELD_REQUIRED'],
		['Messages', 'FIELD_REQUIRED'],
		[{ messages: [SEND] }, 'FIELD_REQUIRED'],
		[{ Messages: SEND }, 'INVALID_TYPE'],
		[{ Messages: 'x' }, 'INVALID_TYPE'],
		[{ Messages: null }, 'INVALID_TYPE'],
	])('%j fails the whole request with %s on Messages', (body, code) => {
		expect(validateBatchEnvelope(body)).toMatchObject({
			ErrorCode: code,
			Errors: [{ FieldName: 'Messages', ErrorCode: code }],
		});
	});

	it('element problems are not envelope problems', () => {
		expect(validateBatchEnvelope({ Messages: [{ To: 'bad' }, 42] })).toBeUndefined();
	});
});

describe('batchErrorItem: the per-message error element', () => {
	it('carries the first code, every message and every field', () => {
		const violations = validateSendMessage({ To: '0412', Text: '', From: 'Bad-Sender' }, ctx);
		const item = batchErrorItem(violations);
		expect(item.ErrorCode).toBe(violations[0].ErrorCode);
		expect(item.Errors.map((e) => e.FieldName).sort()).toEqual(['From', 'Text', 'To']);
		expect(item.Errors).toEqual(
			violations.map((v) => ({
				ErrorCode: v.ErrorCode,
				FieldName: v.FieldName,
				Message: v.Message,
			})),
		);
		for (const v of violations) expect(item.Message).toContain(v.Message);
		expect(isBatchErrorItem(item)).toBe(true);
	});

	it("a bad To alone gives the provider's INVALID_PHONENUMBER_FORMAT with FieldName To", () => {
		const item = batchErrorItem(validateSendMessage({ ...SEND, To: '12345' }, ctx));
		expect(item).toMatchObject({
			ErrorCode: 'INVALID_PHONENUMBER_FORMAT',
			Errors: [{ FieldName: 'To', ErrorCode: 'INVALID_PHONENUMBER_FORMAT' }],
		});
	});

	it('a batch validates element by element, in request order', () => {
		const body = { Messages: [SEND, { ...SEND, To: 'x' }, { ...SEND, Text: '' }] };
		expect(validateBatchEnvelope(body)).toBeUndefined();
		const results = body.Messages.map((m) => validateSendMessage(m, ctx));
		expect(results.map((r) => r.map((v) => v.FieldName))).toEqual([[], ['To'], ['Text']]);
	});
});

import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	checkWebhookMethod,
	checkWebhookUri,
	isWebhookUri,
	normaliseWebhookMethod,
	validateSendMessage,
} from '../../../api';
import { SEND, ctx, pairs } from './helpers';

describe('webhook URIs: absolute http or https URLs', () => {
	it.each([
		['https://example.com/hook', true],
		['http://example.com', true],
		['http://localhost:5678/webhook/abc', true],
		['http://127.0.0.1:8080/r?x=1', true],
		['HTTPS://EXAMPLE.COM/HOOK', true],
		['https://user:pw@example.com/hook', true],
		['ftp://example.com/hook', false],
		['mailto:ops@example.com', false],
		['javascript:alert(1)', false],
		['//example.com/hook', false],
		['/webhook', false],
		['example.com/hook', false],
		['http:/example.com', false],
		['http://', false],
		['https://exa mple.com', false],
		['', false],
		[' https://example.com', false],
	])('%j -> %s', (uri, ok) => {
		expect(isWebhookUri(uri)).toBe(ok);
		const v = checkWebhookUri('WebhookUri', uri);
		if (ok) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'WebhookUri', ErrorCode: ErrorCodes.InvalidUri });
	});
});

describe('webhook methods: POST or GET, default POST', () => {
	it.each([
		[undefined, 'POST'],
		['POST', 'POST'],
		['GET', 'GET'],
		['post', 'POST'],
		['Get', 'GET'],
		['PUT', undefined],
		['PATCH', undefined],
		['DELETE', undefined],
		['', undefined],
		[' POST', undefined],
	])('%j -> %s', (method, normalised) => {
		expect(normaliseWebhookMethod(method)).toBe(normalised);
		if (method === undefined) return;
		const v = checkWebhookMethod('WebhookMethod', method);
		if (normalised) expect(v).toBeUndefined();
		else
			expect(v).toMatchObject({ FieldName: 'WebhookMethod', ErrorCode: ErrorCodes.InvalidMethod });
	});
});

describe('delivery-receipt webhook fields in a send', () => {
	it('takes a URI and a method with any sender', () => {
		const body = {
			...SEND,
			From: 'CloudTel',
			DeliveryReceipt: true,
			DeliveryReceiptWebhookUri: 'https://example.com/r',
			DeliveryReceiptWebhookMethod: 'GET',
		};
		expect(validateSendMessage(body, ctx)).toEqual([]);
	});

	it('reports a bad URI and a bad method together', () => {
		const body = {
			...SEND,
			DeliveryReceiptWebhookUri: 'ftp://x',
			DeliveryReceiptWebhookMethod: 'PUT',
		};
		expect(pairs(validateSendMessage(body, ctx))).toEqual([
			'DeliveryReceiptWebhookMethod INVALID_METHOD',
			'DeliveryReceiptWebhookUri INVALID_URI',
		]);
	});

	it('refuses wrong JSON types', () => {
		const body = {
			...SEND,
			DeliveryReceipt: 'true',
			DeliveryReceiptWebhookUri: 42,
			DeliveryReceiptWebhookMethod: ['POST'],
		};
		expect(pairs(validateSendMessage(body, ctx))).toEqual([
			'DeliveryReceipt INVALID_TYPE',
			'DeliveryReceiptWebhookMethod INVALID_TYPE',
			'DeliveryReceiptWebhookUri INVALID_TYPE',
		]);
	});
});

import { describe, expect, it } from 'vitest';
import {
	describeResponseStatus,
	isBatchErrorItem,
	isMessage,
	readResponseStatus,
	unwrap,
} from '../../../api';

const LOGIN = { OnlineLoginSid: 's', Email: 'a@b.co' };
const MESSAGE = {
	MessageSid: 'm1',
	AccountSid: 'a',
	PropertySid: 'p',
	From: '+61400000000',
	To: '+61412345678',
	Text: 'hi',
	ErrorCode: '',
};

describe('unwrap: a wrapped or a bare object', () => {
	it.each([
		['the wrapper', { OnlineLogin: LOGIN }, LOGIN],
		['a bare object', LOGIN, LOGIN],
		['a wrapper with extra fields', { OnlineLogin: LOGIN, Extra: 1 }, LOGIN],
		[
			'a wrapper key holding a non-object is not a wrapper',
			{ OnlineLogin: 'x' },
			{ OnlineLogin: 'x' },
		],
		['an array', [LOGIN], [LOGIN]],
		['null', null, null],
	])('%s', (_label, body, expected) => {
		expect(unwrap(body, 'OnlineLogin')).toEqual(expected);
	});
});

describe('readResponseStatus: the error in a non-2xx body', () => {
	const errors = [{ ErrorCode: 'INVALID_EMAIL', FieldName: 'Email', Message: 'bad' }];

	it.each([
		[
			'wrapped',
			{ ResponseStatus: { ErrorCode: 'E', Message: 'm', Errors: errors } },
			{ ErrorCode: 'E', Message: 'm', Errors: errors },
		],
		[
			'bare',
			{ ErrorCode: 'E', Message: 'm', Errors: errors },
			{ ErrorCode: 'E', Message: 'm', Errors: errors },
		],
		[
			'no Errors',
			{ ResponseStatus: { ErrorCode: 'E', Message: 'm' } },
			{ ErrorCode: 'E', Message: 'm', Errors: [] },
		],
		[
			'no Message',
			{ ResponseStatus: { ErrorCode: 'E' } },
			{ ErrorCode: 'E', Message: '', Errors: [] },
		],
		[
			'Errors not an array',
			{ ErrorCode: 'E', Message: 'm', Errors: 'x' },
			{ ErrorCode: 'E', Message: 'm', Errors: [] },
		],
		[
			'a numeric Message',
			{ ErrorCode: 'E', Message: 5 },
			{ ErrorCode: 'E', Message: '', Errors: [] },
		],
		[
			'extra fields',
			{ ResponseStatus: { ErrorCode: 'E', Message: 'm', StackTrace: 's' }, Meta: 1 },
			{ ErrorCode: 'E', Message: 'm', Errors: [] },
		],
	])('%s', (_label, body, expected) => {
		expect(readResponseStatus(body)).toEqual(expected);
	});

	it.each([
		[null],
		['Bad Request'],
		[{}],
		[{ ResponseStatus: {} }],
		[{ ErrorCode: 400 }],
		[[{ ErrorCode: 'E' }]],
	])('%j has none', (body) => {
		expect(readResponseStatus(body)).toBeUndefined();
	});

	it('describes a status in one line, naming each field once', () => {
		const status = {
			ErrorCode: 'E',
			Message: 'Bad request.',
			Errors: [
				...errors,
				{ ErrorCode: 'X', FieldName: 'Email', Message: 'again' },
				{ ErrorCode: 'Y', FieldName: '', Message: '' },
			],
		};
		expect(describeResponseStatus(status)).toBe('E: Bad request. (fields: Email)');
		expect(describeResponseStatus({ ErrorCode: 'E', Message: 'm' })).toBe('E: m');
	});
});

describe('isBatchErrorItem / isMessage', () => {
	it.each([
		[
			'an error item',
			{ ErrorCode: 'INVALID_PHONENUMBER_FORMAT', Message: 'm', Errors: [{ FieldName: 'To' }] },
			true,
			false,
		],
		['an error item without Errors', { ErrorCode: 'FormatException', Message: 'm' }, true, false],
		['a message', MESSAGE, false, true],
		['a message with an ErrorCode set', { ...MESSAGE, ErrorCode: 'X' }, false, true],
		['an empty ErrorCode', { ErrorCode: '', Message: '' }, false, false],
		['a numeric ErrorCode', { ErrorCode: 400 }, false, false],
		['null', null, false, false],
		['an array', [MESSAGE], false, false],
	])('%s', (_label, item, error, message) => {
		expect(isBatchErrorItem(item)).toBe(error);
		expect(isMessage(item)).toBe(message);
	});
});

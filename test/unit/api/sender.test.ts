import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	ErrorCodes,
	checkForwardSender,
	checkSender,
	effectiveSenderKind,
	isAlphanumericSender,
	senderKind,
	validateSendMessage,
} from '../../../api';
import { SEND, ctx, pairs } from './helpers';

describe('sender kinds: E.164, alphanumeric, leased', () => {
	it.each([
		[undefined, 'leased'],
		[null, 'leased'],
		['', 'leased'],
		['   ', 'leased'],
		['+61412345678', 'e164'],
		['+12025550123', 'e164'],
		['A', 'alphanumeric'],
		['CloudTel', 'alphanumeric'],
		['Cloud Tel 1', 'alphanumeric'],
		['ABCDEFGHIJK', 'alphanumeric'],
		['1a', 'alphanumeric'],
		['ABCDEFGHIJKL', undefined],
		['12345678', undefined],
		['12345678901', undefined],
		['Cloud-Tel', undefined],
		['Cloud_Tel', undefined],
		['Clöud', undefined],
		['+0412345678', undefined],
		['+1234567', undefined],
	])('From %j is %s', (from, kind) => {
		expect(senderKind(from)).toBe(kind);
	});

	it.each([
		['A', true, '1 character'],
		['Abcdefghijk', true, '11 characters'],
		['Abcdefghijkl', false, '12 characters'],
		['', false, '0 characters'],
		['1234567890', false, 'no letter'],
		['          a', true, 'spaces and one letter'],
		['           ', false, 'spaces only'],
		['Tel!', false, 'punctuation'],
		['Tél', false, 'accented letter'],
	])('alphanumeric %j: %s (%s)', (value, ok) => {
		expect(isAlphanumericSender(value)).toBe(ok);
	});

	it('a non-string is never alphanumeric', () => {
		expect(isAlphanumericSender(123)).toBe(false);
		expect(isAlphanumericSender(['A'])).toBe(false);
	});

	it.each(['Abcdefghijkl', '12345', 'Cloud-Tel', '+0412345678'])(
		'checkSender refuses %j with INVALID_SENDER_ID on the field',
		(value) => {
			expect(checkSender('From', value)).toMatchObject({
				FieldName: 'From',
				ErrorCode: ErrorCodes.InvalidSenderId,
			});
		},
	);

	it.each(['+61412345678', 'CloudTel', ''])('checkSender accepts %j', (value) => {
		expect(checkSender('From', value)).toBeUndefined();
	});

	it('ForwardFromSms takes E.164 or alphanumeric, never blank', () => {
		expect(checkForwardSender('ForwardFromSms', '+61412345678')).toBeUndefined();
		expect(checkForwardSender('ForwardFromSms', 'Support')).toBeUndefined();
		expect(checkForwardSender('ForwardFromSms', '')).toMatchObject({
			FieldName: 'ForwardFromSms',
			ErrorCode: ErrorCodes.InvalidSenderId,
		});
		expect(checkForwardSender('ForwardFromSms', 'Abcdefghijkl')).toMatchObject({
			ErrorCode: ErrorCodes.InvalidSenderId,
		});
	});

	it('any 1..11 of A-Z a-z 0-9 space with a letter validates', () => {
		const unit = fc.constantFrom(...'ABCxyz0189 ');
		const letter = fc.constantFrom(...'AZaz');
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 10 }), letter, fc.nat(10), (s, l, at) => {
				const i = Math.min(at, s.length);
				const value = s.slice(0, i) + l + s.slice(i);
				return isAlphanumericSender(value) && senderKind(value) === 'alphanumeric';
			}),
		);
	});
});

describe('the +1 rule: an alphanumeric sender to US/Canada becomes a leased number', () => {
	it.each([
		['CloudTel', '+12025550123', 'leased'],
		['CloudTel', '+14165550123', 'leased'],
		['CloudTel', '+61412345678', 'alphanumeric'],
		['CloudTel', '+447911123456', 'alphanumeric'],
		['+61412345678', '+12025550123', 'e164'],
		['', '+12025550123', 'leased'],
		[undefined, '+61412345678', 'leased'],
		['Bad-Sender', '+12025550123', undefined],
	])('From %j to %s is sent as %s', (from, to, kind) => {
		expect(effectiveSenderKind(from, to)).toBe(kind);
	});

	it('the send itself is still valid (the provider substitutes, it does not refuse)', () => {
		expect(validateSendMessage({ ...SEND, From: 'CloudTel', To: '+12025550123' }, ctx)).toEqual([]);
	});
});

describe('From inside a send', () => {
	it.each([
		['', []],
		['   ', []],
		['A', []],
		['Abcdefghijk', []],
		['Abcdefghijkl', ['From INVALID_SENDER_ID']],
		['+1234567', ['From INVALID_SENDER_ID']],
		['+12345678', []],
		['+123456789012345', []],
		['+1234567890123456', ['From INVALID_SENDER_ID']],
	])('From %j', (from, expected) => {
		expect(pairs(validateSendMessage({ ...SEND, From: from }, ctx))).toEqual(expected);
	});

	it.each([[61412345678], [true], [['CloudTel']], [{ Id: 'CloudTel' }]])(
		'From %j (not a string) is INVALID_TYPE',
		(from) => {
			expect(pairs(validateSendMessage({ ...SEND, From: from }, ctx))).toEqual([
				'From INVALID_TYPE',
			]);
		},
	);
});

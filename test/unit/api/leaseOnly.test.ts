import { describe, expect, it } from 'vitest';
import { LEASE_ONLY_FIELDS, validateSendMessage } from '../../../api';
import { SEND, ctx, pairs } from './helpers';

const LEASE_OPTIONS = {
	ForwardToSms: '+61498765432',
	ForwardFromSms: 'Support',
	ForwardToEmail: 'ops@example.com',
	ForwardFromEmail: 'noreply@example.com',
	WebhookUri: 'https://example.com/reply',
	WebhookMethod: 'POST',
} as const;

describe('lease-only fields apply only when From is blank or omitted', () => {
	it('lists exactly the six reply-handling fields', () => {
		expect([...LEASE_ONLY_FIELDS].sort()).toEqual(Object.keys(LEASE_OPTIONS).sort());
	});

	it.each([[undefined], [''], ['  '], [null]])('with From %j all six are accepted', (from) => {
		expect(validateSendMessage({ ...SEND, From: from, ...LEASE_OPTIONS }, ctx)).toEqual([]);
	});

	it.each([['+61412345678'], ['CloudTel']])(
		'with From %j every one present is refused on its own field, all at once',
		(from) => {
			expect(pairs(validateSendMessage({ ...SEND, From: from, ...LEASE_OPTIONS }, ctx))).toEqual(
				Object.keys(LEASE_OPTIONS)
					.map((f) => `${f} LEASE_ONLY_FIELD`)
					.sort(),
			);
		},
	);

	it.each(Object.entries(LEASE_OPTIONS))(
		'with a non-blank From, %s alone is refused',
		(field, value) => {
			expect(
				pairs(validateSendMessage({ ...SEND, From: 'CloudTel', [field]: value }, ctx)),
			).toEqual([`${field} LEASE_ONLY_FIELD`]);
		},
	);

	it('an alphanumeric From to +1 is still refused: the sender asked for is not blank', () => {
		expect(
			pairs(
				validateSendMessage(
					{ ...SEND, From: 'CloudTel', To: '+12025550123', WebhookUri: 'https://example.com/r' },
					ctx,
				),
			),
		).toEqual(['WebhookUri LEASE_ONLY_FIELD']);
	});

	it('a null lease-only field counts as absent outside a patch', () => {
		expect(validateSendMessage({ ...SEND, From: 'CloudTel', WebhookUri: null }, ctx)).toEqual([]);
	});

	it('each lease-only field keeps its own rule, all reported at once', () => {
		const body = {
			...SEND,
			ForwardToSms: '0412345678',
			ForwardFromSms: 'Way Too Long Sender',
			ForwardToEmail: 'not-an-email',
			ForwardFromEmail: 'a@b',
			WebhookUri: 'ftp://example.com',
			WebhookMethod: 'PUT',
		};
		expect(pairs(validateSendMessage(body, ctx))).toEqual([
			'ForwardFromEmail INVALID_EMAIL',
			'ForwardFromSms INVALID_SENDER_ID',
			'ForwardToEmail INVALID_EMAIL',
			'ForwardToSms INVALID_PHONENUMBER_FORMAT',
			'WebhookMethod INVALID_METHOD',
			'WebhookUri INVALID_URI',
		]);
	});

	it('a bad lease-only value with a non-blank From gets both violations on that field', () => {
		expect(
			pairs(validateSendMessage({ ...SEND, From: 'CloudTel', ForwardToSms: '0412' }, ctx)),
		).toEqual(['ForwardToSms INVALID_PHONENUMBER_FORMAT', 'ForwardToSms LEASE_ONLY_FIELD']);
	});

	it('wrong JSON types are refused', () => {
		const body = {
			...SEND,
			ForwardToSms: 61498765432,
			ForwardToEmail: ['ops@example.com'],
			WebhookUri: { href: 'https://x.com' },
		};
		expect(pairs(validateSendMessage(body, ctx))).toEqual([
			'ForwardToEmail INVALID_TYPE',
			'ForwardToSms INVALID_TYPE',
			'WebhookUri INVALID_TYPE',
		]);
	});
});

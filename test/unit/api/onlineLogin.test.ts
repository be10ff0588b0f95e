import { describe, expect, it } from 'vitest';
import {
	UPDATE_ONLINE_LOGIN_FIELDS,
	validateCreateOnlineLogin,
	validateUpdateOnlineLogin,
} from '../../../api';
import { ACCOUNT_SID, pairs } from './helpers';

const CREATE = {
	Email: 'ada@example.com',
	Password: 'Abcdefghij1!',
	FirstName: 'Ada',
	LastName: 'Lovelace',
	Scopes: 'Manage,Reporting',
};

describe('create online login', () => {
	it('accepts a full request, with or without Enabled', () => {
		expect(validateCreateOnlineLogin(CREATE)).toEqual([]);
		expect(validateCreateOnlineLogin({ ...CREATE, Enabled: true })).toEqual([]);
		expect(validateCreateOnlineLogin({ ...CREATE, Enabled: false })).toEqual([]);
	});

	it('requires Email, Password, FirstName, LastName and Scopes, all reported at once', () => {
		expect(pairs(validateCreateOnlineLogin({}))).toEqual([
			'Email FIELD_REQUIRED',
			'FirstName FIELD_REQUIRED',
			'LastName FIELD_REQUIRED',
			'Password FIELD_REQUIRED',
			'Scopes FIELD_REQUIRED',
		]);
		expect(
			pairs(
				validateCreateOnlineLogin({
					Email: ' ',
					Password: '',
					FirstName: '',
					LastName: '\t',
					Scopes: '',
				}),
			),
		).toEqual([
			'Email FIELD_REQUIRED',
			'FirstName FIELD_REQUIRED',
			'LastName FIELD_REQUIRED',
			'Password FIELD_REQUIRED',
			'Scopes FIELD_REQUIRED',
		]);
	});

	it('reports every bad field at once', () => {
		expect(
			pairs(
				validateCreateOnlineLogin({
					...CREATE,
					Email: 'ada',
					Password: 'short',
					Scopes: 'Manage,Root',
					Enabled: 'yes',
				}),
			),
		).toEqual([
			'Email INVALID_EMAIL',
			'Enabled INVALID_TYPE',
			'Password INVALID_PASSWORD',
			'Scopes INVALID_SCOPE',
		]);
	});

	it.each([
		['Email', 42],
		['Password', 123456789012],
		['FirstName', ['Ada']],
		['LastName', { last: 'Lovelace' }],
		['Scopes', ['Manage']],
		['Enabled', 'true'],
		['Enabled', 1],
	])('%s = %j is INVALID_TYPE', (field, value) => {
		expect(pairs(validateCreateOnlineLogin({ ...CREATE, [field]: value }))).toEqual([
			`${field} INVALID_TYPE`,
		]);
	});

	it('Permissions is not part of create (Scopes is, for the property in the path)', () => {
		expect(
			validateCreateOnlineLogin({
				...CREATE,
				Permissions: [{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' }],
			}),
		).toEqual([]);
	});
});

describe('update online login (merge patch)', () => {
	it('has exactly the six updatable fields', () => {
		expect([...UPDATE_ONLINE_LOGIN_FIELDS].sort()).toEqual([
			'Email',
			'Enabled',
			'FirstName',
			'LastName',
			'Password',
			'Permissions',
		]);
	});

	it.each([
		[{}],
		[{ Enabled: false }],
		[{ Email: 'new@example.com' }],
		[{ FirstName: 'Ada' }],
		[{ Password: 'Abcdefghij1!', Permissions: [] }],
	])('a partial body %j is valid', (body) => {
		expect(validateUpdateOnlineLogin(body)).toEqual([]);
	});

	it('reports every violation at once: values, types, nulls and unknown fields', () => {
		const body = {
			Email: 'not-an-email',
			Password: 'Abcdefghi1!',
			Enabled: 'false',
			FirstName: ' ',
			LastName: null,
			Permissions: [{ AccountSid: ACCOUNT_SID, Scopes: 'Manage' }, { Scopes: 'Admin,Boss' }],
			Username: 'ada',
		};
		expect(pairs(validateUpdateOnlineLogin(body))).toEqual([
			'Email INVALID_EMAIL',
			'Enabled INVALID_TYPE',
			'FirstName FIELD_REQUIRED',
			'LastName NULL_NOT_ALLOWED',
			'Password INVALID_PASSWORD',
			'Permissions[1] INVALID_PERMISSION',
			'Permissions[1].Scopes INVALID_SCOPE',
			'Username UNKNOWN_FIELD',
		]);
	});
});

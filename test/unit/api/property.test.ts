import { describe, expect, it } from 'vitest';
import { UPDATE_PROPERTY_FIELDS, validateUpdateProperty } from '../../../api';
import { pairs } from './helpers';

describe('update property (merge patch)', () => {
	it('has exactly the seven updatable fields', () => {
		expect([...UPDATE_PROPERTY_FIELDS].sort()).toEqual(
			[
				'Active',
				'CallRecordingEnabled',
				'IntegrationsEnabled',
				'MainDomain',
				'Name',
				'SmsEnabled',
				'TimeZone',
			].sort(),
		);
	});

	it.each([
		[{}],
		[{ SmsEnabled: true }],
		[{ Active: false, CallRecordingEnabled: false, IntegrationsEnabled: true }],
		[{ Name: 'Campaigns', MainDomain: 'example.com.au', TimeZone: 'AUS Eastern Standard Time' }],
	])('%j is valid', (body) => {
		expect(validateUpdateProperty(body)).toEqual([]);
	});

	it('reports every violation at once', () => {
		const body = {
			Name: ' ',
			MainDomain: 'not a domain',
			TimeZone: 'Australia/Sydney',
			SmsEnabled: 'true',
			CallRecordingEnabled: 0,
			IntegrationsEnabled: null,
			Active: [true],
			PropertySid: 'x',
		};
		expect(pairs(validateUpdateProperty(body))).toEqual([
			'Active INVALID_TYPE',
			'CallRecordingEnabled INVALID_TYPE',
			'IntegrationsEnabled NULL_NOT_ALLOWED',
			'MainDomain INVALID_DOMAIN',
			'Name FIELD_REQUIRED',
			'PropertySid UNKNOWN_FIELD',
			'SmsEnabled INVALID_TYPE',
			'TimeZone INVALID_TIMEZONE',
		]);
	});

	it.each([
		['Name', 5],
		['MainDomain', ['example.com']],
		['TimeZone', { id: 'UTC' }],
		['SmsEnabled', 'false'],
		['Active', 1],
	])('%s = %j is INVALID_TYPE', (field, value) => {
		expect(pairs(validateUpdateProperty({ [field]: value }))).toEqual([`${field} INVALID_TYPE`]);
	});
});

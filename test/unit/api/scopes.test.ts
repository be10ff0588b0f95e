import { describe, expect, it } from 'vitest';
import { ErrorCodes, SCOPES, checkScopes, splitScopes } from '../../../api';

describe('scope names', () => {
	it('are exactly the thirteen of the interface', () => {
		expect([...SCOPES]).toEqual([
			'Manage',
			'Reporting',
			'ManageSms',
			'ReportingSms',
			'Integrations',
			'Billing',
			'ProjectManagement',
			'UserManagement',
			'SipManagement',
			'ProvisionSms',
			'OutboundCallReporting',
			'DisconnectNumbers',
			'Admin',
		]);
	});

	it.each(SCOPES.map((s) => [s]))('%s alone is accepted', (scope) => {
		expect(checkScopes('Scopes', scope)).toBeUndefined();
	});

	it.each([
		['Manage,Reporting', true],
		['Manage, Reporting ,Billing', true],
		[SCOPES.join(','), true],
		['Manage,Manage', true],
		['manage', false],
		['MANAGE', false],
		['Manager', false],
		['Manage,Superuser', false],
		['Manage;Reporting', false],
		['Manage Reporting', false],
		['', false],
		['Manage,', false],
		[',Manage', false],
		['Manage,,Reporting', false],
		[' ', false],
	])('%j -> %s', (value, ok) => {
		const v = checkScopes('Scopes', value);
		if (ok) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'Scopes', ErrorCode: ErrorCodes.InvalidScope });
	});

	it('names every unknown scope in one message', () => {
		const v = checkScopes('Scopes', 'Manage,Root,Superuser');
		expect(v?.Message).toContain('"Root"');
		expect(v?.Message).toContain('"Superuser"');
	});

	it('splits on commas and trims', () => {
		expect(splitScopes(' Manage , Billing')).toEqual(['Manage', 'Billing']);
	});
});

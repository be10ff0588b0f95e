import type { INodePropertyOptions } from 'n8n-workflow';
import { SCOPES, type Scope } from '../../../../api';

/**
 * How the editor shows each scope. The interface names the scopes but does not define
 * them, so each description says what the name suggests and gives the API name, which
 * is what is sent.
 */
const SHOWN: Record<Scope, [label: string, about: string]> = {
	Admin: ['Admin', 'Administration'],
	Billing: ['Billing', 'Billing and invoices'],
	DisconnectNumbers: ['Disconnect Numbers', 'Disconnecting phone numbers'],
	Integrations: ['Integrations', 'Integrations with other services'],
	Manage: ['Manage', 'Managing the property'],
	ManageSms: ['Manage SMS', 'Sending and managing SMS'],
	OutboundCallReporting: ['Outbound Call Reporting', 'Reports on outbound calls'],
	ProjectManagement: ['Project Management', 'Managing properties (projects)'],
	ProvisionSms: ['Provision SMS', 'Provisioning SMS numbers and services'],
	Reporting: ['Reporting', 'Reports'],
	ReportingSms: ['SMS Reporting', 'Reports on SMS'],
	SipManagement: ['SIP Management', 'Managing SIP trunks'],
	UserManagement: ['User Management', 'Managing users and online logins'],
};

export const scopeOptions: INodePropertyOptions[] = SCOPES.map((scope) => ({
	name: SHOWN[scope][0],
	value: scope,
	description: `${SHOWN[scope][1]} (API scope ${scope})`,
})).sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));

/** A multiOptions value, or a comma-separated string from an expression, as the wire's list. */
export function joinScopes(value: unknown): string {
	if (Array.isArray(value)) return value.map(String).join(',');
	return typeof value === 'string' ? value : '';
}

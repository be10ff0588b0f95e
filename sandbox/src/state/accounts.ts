import type { PropertyRecord, AccountRecord } from './records';
import { newAuthToken, newSid } from './ids';
import type { Store } from './store';

export function createAccount(store: Store, smsEnabled = true): AccountRecord {
	const account = { AccountSid: newSid(), AuthToken: newAuthToken(), SmsEnabled: smsEnabled };
	store.accounts.set(account.AccountSid, account);
	return account;
}

export interface NewProperty {
	Name?: string;
	SmsEnabled?: boolean;
	Active?: boolean;
	TimeZone?: string;
}

export function createProperty(
	store: Store,
	accountSid: string,
	input: NewProperty = {},
): PropertyRecord {
	const property: PropertyRecord = {
		PropertySid: newSid(),
		AccountSid: accountSid,
		Name: input.Name ?? 'Sandbox property',
		MainDomain: '',
		TimeZone: input.TimeZone ?? 'AUS Eastern Standard Time',
		SmsEnabled: input.SmsEnabled ?? true,
		CallRecordingEnabled: false,
		IntegrationsEnabled: false,
		Active: input.Active ?? true,
	};
	store.properties.set(property.PropertySid, property);
	return property;
}

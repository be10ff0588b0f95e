/**
 * The name a user sees in the node for an API field path such as
 * `SipTrunkIpAddresses[0].IpAddress` ("IP Address"), so that error titles name what is on
 * screen rather than the wire format.
 */
const OVERRIDES: Record<string, string> = {
	Friendly: 'Friendly Name',
	OnlineLoginSid: 'Online Login',
	Results_Count: 'Limit',
	Results_Skip: 'Skip',
	SipTrunkAllowedCountries: 'Allowed Countries',
	SipTrunkIpAddresses: 'IP Addresses',
	SipTrunkCredentials: 'Realm and Password',
	WebhookUri: 'Webhook URI',
	WebhookMethod: 'Webhook Method',
	body: 'Message',
};

const ACRONYMS: Record<string, string> = {
	Sid: 'SID',
	Id: 'ID',
	Uri: 'URI',
	Sms: 'SMS',
	Ip: 'IP',
	Url: 'URL',
};

function words(name: string): string {
	return name
		.replace(/_/g, ' ')
		.replace(/([a-z])([A-Z0-9])/g, '$1 $2')
		.split(' ')
		.map((w) => ACRONYMS[w] ?? w)
		.join(' ');
}

export function fieldDisplayName(path: string): string {
	const steps = path.split('.').map((s) => s.replace(/\[\d+\]/g, ''));
	// Allowed Countries is one comma-separated field in the node, not a list of entries.
	if (steps[0] === 'SipTrunkAllowedCountries') return OVERRIDES.SipTrunkAllowedCountries;
	const last = steps[steps.length - 1];
	return OVERRIDES[last] ?? words(last);
}

export const SipTrunkType = { IpToIp: 0, Authenticated: 1 } as const;
export type SipTrunkTypeValue = (typeof SipTrunkType)[keyof typeof SipTrunkType];

export interface CreateSipTrunkRequest {
	Name: string;
	DefaultCallerId: string;
	Type: SipTrunkTypeValue;
	SipTrunkIpAddresses?: Array<{ IpAddress: string }>;
	SipTrunkCredentials?: { Realm: string; Password: string };
	SipTrunkAllowedCountries?: Array<{ CountryCode: string }>;
	ChannelLimit?: number;
	CustomerReference?: string;
}

export interface CreateSipTrunkResponse {
	SipTrunkSid: string;
}

import { MERGE_PATCH_CONTENT_TYPE } from './mergePatch';
import type { AddAddressRequest } from './types/address';
import type { SendMessageRequest } from './types/message';
import type {
	CreateOnlineLoginRequest,
	ListOnlineLoginsParams,
	UpdateOnlineLoginRequest,
} from './types/onlineLogin';
import type { UpdatePropertyRequest } from './types/property';
import type { CreateSipTrunkRequest } from './types/sipTrunk';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call to the provider, independent of the HTTP client that makes it. */
export interface ApiRequest {
	method: HttpMethod;
	/** Starts with /v2; joined to the configured base URL. */
	path: string;
	query?: Record<string, string | number>;
	body?: unknown;
	contentType?: string;
}

const seg = encodeURIComponent;

export const paths = {
	onlineLogins: () => '/v2/OnlineLogins',
	onlineLogin: (sid: string) => `/v2/OnlineLogins/${seg(sid)}`,
	propertyOnlineLogins: (propertySid: string) => `/v2/Properties/${seg(propertySid)}/OnlineLogins`,
	property: (propertySid: string) => `/v2/Properties/${seg(propertySid)}`,
	messages: (propertySid: string) => `/v2/Properties/${seg(propertySid)}/Messages`,
	batchMessages: (propertySid: string) => `/v2/Properties/${seg(propertySid)}/BatchMessages`,
	sipTrunk: (propertySid: string) => `/v2/Properties/${seg(propertySid)}/SipTrunk`,
	addresses: (accountSid: string) => `/v2/Accounts/${seg(accountSid)}/Addresses`,
	address: (addressSid: string) => `/v2/Addresses/${seg(addressSid)}`,
};

function definedOnly(params: ListOnlineLoginsParams): Record<string, string | number> {
	const out: Record<string, string | number> = {};
	for (const [k, v] of Object.entries(params))
		if (v !== undefined && v !== '') out[k] = v as string | number;
	return out;
}

export const requests = {
	createOnlineLogin: (propertySid: string, body: CreateOnlineLoginRequest): ApiRequest => ({
		method: 'POST',
		path: paths.propertyOnlineLogins(propertySid),
		body,
	}),
	listOnlineLogins: (params: ListOnlineLoginsParams = {}): ApiRequest => ({
		method: 'GET',
		path: paths.onlineLogins(),
		query: definedOnly(params),
	}),
	getOnlineLogin: (sid: string): ApiRequest => ({ method: 'GET', path: paths.onlineLogin(sid) }),
	updateOnlineLogin: (sid: string, patch: UpdateOnlineLoginRequest): ApiRequest => ({
		method: 'PATCH',
		path: paths.onlineLogin(sid),
		body: patch,
		contentType: MERGE_PATCH_CONTENT_TYPE,
	}),
	updateProperty: (propertySid: string, patch: UpdatePropertyRequest): ApiRequest => ({
		method: 'PATCH',
		path: paths.property(propertySid),
		body: patch,
		contentType: MERGE_PATCH_CONTENT_TYPE,
	}),
	sendMessage: (propertySid: string, body: SendMessageRequest): ApiRequest => ({
		method: 'POST',
		path: paths.messages(propertySid),
		body,
	}),
	sendBatch: (propertySid: string, messages: SendMessageRequest[]): ApiRequest => ({
		method: 'POST',
		path: paths.batchMessages(propertySid),
		body: { Messages: messages },
	}),
	createSipTrunk: (propertySid: string, body: CreateSipTrunkRequest): ApiRequest => ({
		method: 'POST',
		path: paths.sipTrunk(propertySid),
		body,
	}),
	addAddress: (accountSid: string, body: AddAddressRequest): ApiRequest => ({
		method: 'POST',
		path: paths.addresses(accountSid),
		body,
	}),
	deleteAddress: (addressSid: string): ApiRequest => ({
		method: 'DELETE',
		path: paths.address(addressSid),
	}),
};

/** HTTP Basic: user AccountSid, password AuthToken (contract.md). */
export function basicAuthorization(accountSid: string, authToken: string): string {
	const bytes = new TextEncoder().encode(`${accountSid}:${authToken}`);
	let binary = '';
	for (const b of bytes) binary += String.fromCharCode(b);
	return `Basic ${btoa(binary)}`;
}

/**
 * The API root a user meant: the Base URL without trailing slashes and without a trailing
 * `/v2`, which every path already starts with (a Base URL copied from the provider's docs
 * often ends in it, and `/v2/v2/...` answers only NOT_FOUND).
 */
export function apiRoot(baseUrl: string): string {
	return baseUrl.trim().replace(/\/+$/, '').replace(/\/v2$/i, '').replace(/\/+$/, '');
}

/** Joins a base URL (with or without a trailing slash or path) and an API path. */
export function joinUrl(
	baseUrl: string,
	path: string,
	query?: Record<string, string | number>,
): string {
	let url = baseUrl.replace(/\/+$/, '') + path;
	if (query && Object.keys(query).length > 0) {
		url +=
			'?' +
			Object.entries(query)
				.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
				.join('&');
	}
	return url;
}

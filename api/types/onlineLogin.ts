import type { Scope } from '../rules/scopes';

export interface Permission {
	AccountSid?: string;
	PropertySid?: string;
	/** Comma-separated scope names. */
	Scopes: string;
}

export interface OnlineLogin {
	OnlineLoginSid: string;
	Email: string;
	Enabled: boolean;
	/** Unix seconds. */
	Created: number;
	FirstName: string;
	LastName: string;
	Permissions: Permission[];
}

export interface CreateOnlineLoginRequest {
	Email: string;
	Password: string;
	FirstName: string;
	LastName: string;
	/** Comma-separated names from {@link Scope}. */
	Scopes: string;
	Enabled?: boolean;
}

/** A JSON Merge Patch: only the fields present change; Permissions replaces the whole set. */
export interface UpdateOnlineLoginRequest {
	Email?: string;
	Password?: string;
	Enabled?: boolean;
	FirstName?: string;
	LastName?: string;
	Permissions?: Permission[];
}

export interface ListOnlineLoginsParams {
	Results_Count?: number;
	Results_Skip?: number;
	/** NextPageToken from the previous page; overrides Results_Skip. */
	PageToken?: string;
}

export interface OnlineLoginResponse {
	OnlineLogin: OnlineLogin;
}

export interface OnlineLoginListResponse {
	OnlineLogins: OnlineLogin[];
	TotalCount: number;
	/** Empty on the last page. */
	NextPageToken: string;
}

export type { Scope };

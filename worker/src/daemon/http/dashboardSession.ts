import { createHmac } from 'node:crypto';
import { secretMatches } from './secretMatches';

/** What a token lets a person do: the report token reads, the API token also controls. */
export type Role = 'read' | 'control';

export const SESSION_COOKIE = 'cloudtel_session';
/** How long a sign-in lasts. */
export const SESSION_SECONDS = 12 * 60 * 60;

export interface Tokens {
	/** `server.reportToken`: read only. */
	report?: string;
	/** `server.apiToken`: read and control. */
	api?: string;
}

const keyOf = (tokens: Tokens, role: Role) => (role === 'control' ? tokens.api : tokens.report);

function mac(key: string, text: string): string {
	return createHmac('sha256', key).update(text).digest('base64url');
}

/** The role a token given at sign-in (or as a Bearer header) stands for; undefined when it is neither. */
export function roleOfToken(tokens: Tokens, given: string): Role | undefined {
	if (tokens.api !== undefined && secretMatches(given, tokens.api)) return 'control';
	if (tokens.report !== undefined && secretMatches(given, tokens.report)) return 'read';
	return undefined;
}

/**
 * A session's cookie value: its role and expiry, signed with the token it was opened with.
 * Nothing is kept on the server; a changed token ends every session it opened.
 */
export function sessionValue(tokens: Tokens, role: Role, expires: number): string {
	return `${role}.${expires}.${mac(keyOf(tokens, role)!, `session\n${role}\n${expires}`)}`;
}

/** The session's role, when the cookie is one this worker signed with today's token and it has not expired. */
export function sessionRole(
	tokens: Tokens,
	value: string | undefined,
	nowSeconds: number,
): Role | undefined {
	const m = /^(read|control)\.(\d{1,12})\.([\w-]{43})$/.exec(value ?? '');
	if (!m) return undefined;
	const role = m[1] as Role;
	const key = keyOf(tokens, role);
	if (key === undefined || Number(m[2]) < nowSeconds) return undefined;
	return secretMatches(m[3], mac(key, `session\n${role}\n${m[2]}`)) ? role : undefined;
}

/** The form token that proves a POST came from a page of this session (derived from it, so nothing is stored). */
export function csrfToken(tokens: Tokens, session: string): string {
	const role = session.split('.')[0] as Role;
	return mac(keyOf(tokens, role) ?? '', `csrf\n${session}`);
}

/** A request's cookie of this name, if it sent one. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
	for (const part of (header ?? '').split(';')) {
		const i = part.indexOf('=');
		if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
	}
	return undefined;
}

/** HttpOnly and SameSite=Strict always; Secure when the worker is reached over https. */
export function sessionCookie(value: string, maxAge: number, secure: boolean): string {
	return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

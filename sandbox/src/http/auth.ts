import { timingSafeEqual } from 'node:crypto';
import { ErrorCodes } from '../../../api';
import type { AccountRecord } from '../state/records';
import type { Store } from '../state/store';
import { ApiError } from './apiError';

function unauthorized(message: string): ApiError {
	return new ApiError(
		401,
		{ ErrorCode: ErrorCodes.Unauthorized, Message: message, Errors: [] },
		{ 'www-authenticate': 'Basic realm="CloudTel"' },
	);
}

function sameSecret(a: string, b: string): boolean {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

/** HTTP Basic: user AccountSid, password AuthToken. Every way of getting it wrong is a 401. */
export function authenticate(header: string | undefined, store: Store): AccountRecord {
	if (!header)
		throw unauthorized('Authentication required: HTTP Basic with your AccountSid and AuthToken.');
	const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
	if (!m)
		throw unauthorized(
			'The Authorization header must be "Basic <base64 of AccountSid:AuthToken>".',
		);
	const decoded = Buffer.from(m[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) throw unauthorized('The Basic credentials must be AccountSid:AuthToken.');
	const account = store.accounts.get(decoded.slice(0, colon));
	if (!account || !sameSecret(account.AuthToken, decoded.slice(colon + 1))) {
		throw unauthorized('Unknown AccountSid or wrong AuthToken.');
	}
	return account;
}

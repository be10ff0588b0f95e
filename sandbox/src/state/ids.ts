import { randomBytes, randomUUID } from 'node:crypto';

/** Sids are lower-case UUIDs, as contract.md says. */
export function newSid(): string {
	return randomUUID();
}

export function newAuthToken(): string {
	return randomBytes(16).toString('hex');
}

import type { Violation } from '../../../api';

/** A fixed clock, so schedule rules are exact to the second. */
export const NOW = 1_700_000_000;
export const ctx = { now: NOW };

/** Field and code of every violation, sorted, so a test can demand the whole set at once. */
export function pairs(violations: readonly Violation[]): string[] {
	return violations.map((v) => `${v.FieldName} ${v.ErrorCode}`).sort();
}

/** A valid, minimal send: each test changes only what it is about. */
export const SEND = { To: '+61412345678', Text: 'Hello' } as const;

export const ACCOUNT_SID = '0a1b2c3d-0000-4000-8000-00000000000a';
export const PROPERTY_SID = '0a1b2c3d-0000-4000-8000-00000000000b';

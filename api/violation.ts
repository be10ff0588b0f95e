import type { ErrorCode } from './errorCodes';

/** One offending field, as the provider lists it in `ResponseStatus.Errors`. */
export interface Violation {
	FieldName: string;
	ErrorCode: ErrorCode;
	Message: string;
}

export function violation(FieldName: string, ErrorCode: ErrorCode, Message: string): Violation {
	return { FieldName, ErrorCode, Message };
}

/** Prefixes nested field names, so `Password` inside credentials reads `SipTrunkCredentials.Password`. */
export function within(prefix: string, violations: Violation[]): Violation[] {
	return violations.map((v) => ({
		...v,
		FieldName: v.FieldName ? `${prefix}.${v.FieldName}` : prefix,
	}));
}

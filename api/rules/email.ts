import { ErrorCodes } from '../errorCodes';
import { violation, type Violation } from '../violation';

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TLD = /^[A-Za-z]{2,63}$/;

/** A host name with at least two labels and an alphabetic top-level label. */
export function isDomainName(value: string): boolean {
	if (value.length > 253) return false;
	const labels = value.split('.');
	if (labels.length < 2) return false;
	return labels.every((l) => LABEL.test(l)) && TLD.test(labels[labels.length - 1]);
}

/** The practical subset of RFC 5321 that mail systems accept: local@domain.tld. */
export function isEmail(value: unknown): value is string {
	if (typeof value !== 'string' || value.length > 254) return false;
	const at = value.lastIndexOf('@');
	if (at <= 0 || at > 64) return false;
	return LOCAL.test(value.slice(0, at)) && isDomainName(value.slice(at + 1));
}

export function checkEmail(field: string, value: string): Violation | undefined {
	if (isEmail(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidEmail,
		`${field} must be a valid e-mail address (got "${value}").`,
	);
}

export function checkDomain(field: string, value: string): Violation | undefined {
	if (isDomainName(value)) return undefined;
	return violation(
		field,
		ErrorCodes.InvalidDomain,
		`${field} must be a domain name such as example.com (got "${value}").`,
	);
}

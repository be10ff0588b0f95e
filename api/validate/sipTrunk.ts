import { ErrorCodes } from '../errorCodes';
import { checkShape, isPlainObject, type Shape } from '../fields';
import { checkAuCallerId } from '../rules/callerId';
import { checkCountryCode } from '../rules/countryCode';
import { checkSipIpAddress } from '../rules/ipv4Cidr';
import { checkSipPassword } from '../rules/sipPassword';
import { violation, within, type Violation } from '../violation';

const CREDENTIALS: Shape = {
	Realm: { type: 'string', required: true },
	Password: { type: 'string', required: true, check: checkSipPassword },
};

function eachEntry(field: string, entries: unknown[], entry: Shape): Violation[] {
	const out: Violation[] = [];
	entries.forEach((e, i) => {
		const name = `${field}[${i}]`;
		if (!isPlainObject(e))
			out.push(violation(name, ErrorCodes.InvalidType, `${name} must be an object.`));
		else out.push(...within(name, checkShape(e, entry)));
	});
	return out;
}

const TRUNK: Shape = {
	Name: { type: 'string', required: true },
	DefaultCallerId: { type: 'string', required: true, check: checkAuCallerId },
	Type: {
		type: 'integer',
		required: true,
		check: (f, v: number) =>
			v === 0 || v === 1
				? undefined
				: violation(
						f,
						ErrorCodes.InvalidTrunkType,
						`${f} must be 0 (IP to IP) or 1 (Authenticated).`,
					),
	},
	SipTrunkIpAddresses: {
		type: 'array',
		check: (f, v: unknown[]) =>
			eachEntry(f, v, { IpAddress: { type: 'string', required: true, check: checkSipIpAddress } }),
	},
	SipTrunkCredentials: {
		type: 'object',
		check: (f, v: Record<string, unknown>) => within(f, checkShape(v, CREDENTIALS)),
	},
	SipTrunkAllowedCountries: {
		type: 'array',
		check: (f, v: unknown[]) =>
			eachEntry(f, v, { CountryCode: { type: 'string', required: true, check: checkCountryCode } }),
	},
	ChannelLimit: {
		type: 'integer',
		check: (f, v: number) =>
			v >= 1 ? undefined : violation(f, ErrorCodes.OutOfRange, `${f} must be 1 or more.`),
	},
	CustomerReference: { type: 'string' },
};

/** Type 0 (IP to IP) needs addresses and no credentials; Type 1 the reverse. */
function typeConditions(body: Record<string, unknown>): Violation[] {
	const ips = body.SipTrunkIpAddresses;
	const hasIps = Array.isArray(ips) && ips.length > 0;
	const hasCredentials =
		body.SipTrunkCredentials !== undefined && body.SipTrunkCredentials !== null;
	const out: Violation[] = [];
	if (body.Type === 0) {
		if (!hasIps)
			out.push(
				violation(
					'SipTrunkIpAddresses',
					ErrorCodes.FieldRequired,
					'SipTrunkIpAddresses needs at least one address when Type is 0 (IP to IP).',
				),
			);
		if (hasCredentials)
			out.push(
				violation(
					'SipTrunkCredentials',
					ErrorCodes.InvalidTrunkType,
					'SipTrunkCredentials is not allowed when Type is 0 (IP to IP).',
				),
			);
	} else if (body.Type === 1) {
		if (!hasCredentials)
			out.push(
				violation(
					'SipTrunkCredentials',
					ErrorCodes.FieldRequired,
					'SipTrunkCredentials is required when Type is 1 (Authenticated).',
				),
			);
		if (hasIps)
			out.push(
				violation(
					'SipTrunkIpAddresses',
					ErrorCodes.InvalidTrunkType,
					'SipTrunkIpAddresses is not allowed when Type is 1 (Authenticated).',
				),
			);
	}
	return out;
}

export function validateCreateSipTrunk(body: unknown): Violation[] {
	const out = checkShape(body, TRUNK);
	return isPlainObject(body) ? [...out, ...typeConditions(body)] : out;
}

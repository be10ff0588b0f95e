import { describe, expect, it } from 'vitest';
import { checkAuCallerId, validateCreateSipTrunk } from '../../../api';
import { pairs } from './helpers';

const TRUNK = { Name: 'Main', Type: 0, SipTrunkIpAddresses: [{ IpAddress: '8.8.8.8' }] };

describe('AU caller IDs: +61, neither shared-rate (+6113) nor toll-free (+611800)', () => {
	it.each([
		['+61212345678', undefined, 'a Sydney landline'],
		['+61398765432', undefined, 'a Melbourne landline'],
		['+61412345678', undefined, 'a mobile'],
		['+61212345', undefined, 'short but E.164 (8 digits)'],
		['+61131234', 'INVALID_CALLER_ID', '13 xx xx shared-rate'],
		['+611300123456', 'INVALID_CALLER_ID', '1300 shared-rate'],
		['+611800123456', 'INVALID_CALLER_ID', '1800 toll-free'],
		['+61180212345', undefined, '1802 is not 1800'],
		['+61190012345', undefined, '19xx: neither rule of the contract'],
		['+611234567', undefined, '+6112: not 13'],
		['+61141234567', undefined, '+6114: not 13'],
		['+6421234567', 'INVALID_CALLER_ID', 'New Zealand'],
		['+12025550123', 'INVALID_CALLER_ID', 'US'],
		['+6', 'INVALID_PHONENUMBER_FORMAT', 'too short'],
		['0212345678', 'INVALID_PHONENUMBER_FORMAT', 'national format'],
		['+61 2 1234 5678', 'INVALID_PHONENUMBER_FORMAT', 'spaces'],
		['+061212345678', 'INVALID_PHONENUMBER_FORMAT', 'leading 0'],
	])('%s -> %s (%s)', (value, code, _label) => {
		const v = checkAuCallerId('DefaultCallerId', value);
		if (code === undefined) expect(v).toBeUndefined();
		else expect(v).toMatchObject({ FieldName: 'DefaultCallerId', ErrorCode: code });
		expect(pairs(validateCreateSipTrunk({ ...TRUNK, DefaultCallerId: value }))).toEqual(
			code ? [`DefaultCallerId ${code}`] : [],
		);
	});

	it('says why in words', () => {
		expect(checkAuCallerId('DefaultCallerId', '+611300123456')?.Message).toMatch(/shared-rate/);
		expect(checkAuCallerId('DefaultCallerId', '+611800123456')?.Message).toMatch(/toll-free/);
		expect(checkAuCallerId('DefaultCallerId', '+6421234567')?.Message).toMatch(/\+61/);
	});
});

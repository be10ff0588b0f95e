import { describe, expect, it } from 'vitest';
import { countSegments, validateSendMessage, validateCreateSipTrunk, checkSipIpAddress } from '../../../api';

describe('api smoke', () => {
	it('counts GSM and UCS-2 segments', () => {
		expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
		expect(countSegments('a'.repeat(161)).segments).toBe(2);
		expect(countSegments('€'.repeat(80)).segments).toBe(1);
		expect(countSegments('€'.repeat(81)).segments).toBe(2);
		expect(countSegments('ж'.repeat(70)).segments).toBe(1);
		expect(countSegments('ж'.repeat(71)).segments).toBe(2);
	});
	it('lists every violation of a send', () => {
		const v = validateSendMessage({ To: '0412', Text: '', From: 'x!', WebhookUri: 'ftp://x' }, { now: 1_000_000 });
		expect(v.map((x) => x.FieldName).sort()).toEqual(['From', 'Text', 'To', 'WebhookUri', 'WebhookUri'].sort());
	});
	it('checks trunks', () => {
		expect(validateCreateSipTrunk({ Name: 'a', DefaultCallerId: '+61212345678', Type: 0, SipTrunkIpAddresses: [{ IpAddress: '8.8.8.0/24' }] })).toEqual([]);
		expect(checkSipIpAddress('Ip', '8.8.8.0/23')?.ErrorCode).toBe('INVALID_IP_ADDRESS');
		expect(checkSipIpAddress('Ip', '10.1.1.1')?.Message).toMatch(/private/);
	});
});

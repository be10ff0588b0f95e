import { describe, expect, it } from 'vitest';
import { toUnixSeconds } from '../../../nodes/CloudTel/actions/common/unixSeconds';
import { compact } from '../../../nodes/CloudTel/actions/common/compact';
import { readPayload } from '../../../nodes/CloudTelTrigger/readPayload';
import { secretMatches } from '../../../nodes/CloudTelTrigger/secret';

describe('node helpers', () => {
	it('reads every shape a dateTime parameter takes as Unix seconds', () => {
		const at = Date.UTC(2030, 0, 2, 3, 4, 5);
		expect(toUnixSeconds('2030-01-02T03:04:05Z', 'Australia/Sydney')).toBe(at / 1000);
		expect(toUnixSeconds('2030-01-02T14:04:05+11:00', 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds('2030-01-02T03:04:05', 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds('2030-01-02T14:04:05', 'Australia/Sydney')).toBe(at / 1000);
		expect(toUnixSeconds(new Date(at), 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds({ toMillis: () => at }, 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds(at, 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds(String(at / 1000), 'UTC')).toBe(at / 1000);
		expect(toUnixSeconds('next tuesday', 'UTC')).toBeUndefined();
	});

	it('leaves out what the user left empty', () => {
		expect(
			compact({ a: '', b: '  ', c: undefined, d: [], e: 'x', f: false, g: 0, h: [1] }),
		).toEqual({ e: 'x', f: false, g: 0, h: [1] });
	});

	it('checks the secret from the query or the header, exactly', () => {
		expect(secretMatches('abc', { secret: 'abc' }, {})).toBe(true);
		expect(secretMatches('abc', {}, { 'x-cloudtel-secret': 'abc' })).toBe(true);
		expect(secretMatches('abc', { secret: 'abcd' }, {})).toBe(false);
		expect(secretMatches('abc', { secret: 'ab' }, {})).toBe(false);
		expect(secretMatches('abc', {}, {})).toBe(false);
	});

	it('takes the fields from the query for GET and the body for POST, without the secret', () => {
		expect(readPayload('GET', { MessageSid: 'm', secret: 's' }, {})).toEqual({ MessageSid: 'm' });
		expect(readPayload('POST', { secret: 's' }, { MessageSid: 'm' })).toEqual({ MessageSid: 'm' });
		expect(readPayload('POST', { MessageSid: 'q', secret: 's' }, {})).toEqual({ MessageSid: 'q' });
		expect(readPayload('POST', {}, [1])).toEqual([1]);
	});
});

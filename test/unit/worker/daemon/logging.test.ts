import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	callbackUrl,
	readCallbackPath,
} from '../../../../worker/src/daemon/callbacks/1-http/callbackUrls';
import { secretMatches } from '../../../../worker/src/daemon/http/secretMatches';
import { RefusalLog } from '../../../../worker/src/daemon/http/refusalLog';
import { JsonLogger } from '../../../../worker/src/daemon/jsonLogger';
import { maskPhoneNumbers } from '../../../../worker/src/daemon/phoneMask';
import { LogReporter } from '../../../../worker/src/daemon/campaigns/logReporter';
import { Redactor } from '../../../../worker/src/daemon/redactor';

describe('structured logs', () => {
	const secret = 'cb-secret-"quoted"/x';
	const lines: string[] = [];
	const log = new JsonLogger(
		(l) => lines.push(l),
		new Redactor([secret, 'auth-token-1234', undefined, '']),
	);

	it('write one JSON object per line with time, level and message', () => {
		log.child({ part: 'test' }).info('hello', { n: 1 });
		const entry = JSON.parse(lines.at(-1)!);
		expect(entry).toMatchObject({ level: 'info', msg: 'hello', part: 'test', n: 1 });
		expect(Date.parse(entry.time)).not.toBeNaN();
		expect(lines.at(-1)!.endsWith('\n')).toBe(true);
	});

	it('never contain a secret: by field name, in free text, escaped or URL-encoded', () => {
		log.warn('oops', {
			password: 'whatever',
			authToken: 'auth-token-1234',
			error: new Error(
				'connect to http://x/callbacks/' +
					encodeURIComponent(secret) +
					'/replies failed with auth-token-1234',
			),
			url: callbackUrl('https://w.example.com/', secret, 'replies'),
			nested: { text: `the secret is ${secret}` },
		});
		const line = lines.at(-1)!;
		expect(line).not.toContain('auth-token-1234');
		expect(line).not.toContain('whatever');
		expect(line).not.toContain('quoted');
		expect(line).not.toContain(encodeURIComponent(secret));
		expect(line).toContain('[redacted]');
	});
});

describe('phone numbers in logs', () => {
	it('are masked wherever they appear, unless log.phoneNumbers is full', () => {
		const masked: string[] = [];
		new JsonLogger((l) => masked.push(l)).info('reply', {
			from: '+61410000103',
			error: new Error('cannot text +14155550123 now'),
			messageSid: '0f1e2d3c-0000-4000-8000-000000000001',
			at: 1700000000123,
		});
		expect(masked[0]).toContain('"from":"+6141****103"');
		expect(masked[0]).toContain('cannot text +1415****123 now');
		expect(masked[0]).toContain('1700000000123');
		expect(masked[0]).toContain('0f1e2d3c-0000-4000-8000-000000000001');
		const full: string[] = [];
		new JsonLogger(
			(l) => full.push(l),
			undefined,
			{},
			{ level: 'info', phoneNumbers: 'full' },
		).info('reply', { from: '+61410000103' });
		expect(full[0]).toContain('"from":"+61410000103"');
		expect(maskPhoneNumbers('+12345678')).toBe('+1****678');
	});

	it("are masked in a campaign row error's reason too, where the number is quoted as the row had it", () => {
		const reason =
			'Phone: "0412 345 4029 9" is not a valid phone number; To: "+61 412 345 678" neither';
		const masked: string[] = [];
		new LogReporter(new JsonLogger((l) => masked.push(l))).rowError(7, 'INVALID_NUMBER', reason);
		expect(JSON.parse(masked[0]).reason).toBe(
			'Phone: "04** *** **29 9" is not a valid phone number; To: "+61 *** *** 678" neither',
		);
		const full: string[] = [];
		new LogReporter(
			new JsonLogger((l) => full.push(l), undefined, {}, { level: 'info', phoneNumbers: 'full' }),
			undefined,
			'full',
		).rowError(7, 'INVALID_NUMBER', reason);
		expect(JSON.parse(full[0]).reason).toBe(reason);
	});

	it('drop lines below the configured level: client aborts are debug', () => {
		const lines: string[] = [];
		new JsonLogger((l) => lines.push(l)).debug('client went away mid-request');
		expect(lines).toEqual([]);
		new JsonLogger(
			(l) => lines.push(l),
			undefined,
			{},
			{ level: 'debug', phoneNumbers: 'masked' },
		).debug('client went away mid-request');
		expect(lines).toHaveLength(1);
	});
});

describe('refused requests', () => {
	afterEach(() => vi.useRealTimers());

	it('are one line per reason and window: the first at once, then the count of the rest, each window while they come', () => {
		// The window closes on the clock the test moves, not on a wait.
		vi.useFakeTimers();
		const lines: Record<string, unknown>[] = [];
		const refusals = new RefusalLog(new JsonLogger((l) => lines.push(JSON.parse(l))), 100);
		for (let i = 0; i < 50; i++)
			refusals.refused('wrong or missing callback secret', { route: 'replies' });
		refusals.refused('no such path');
		expect(lines.map((l) => [l.msg, l.reason, l.count])).toEqual([
			['request refused', 'wrong or missing callback secret', 1],
			['request refused', 'no such path', 1],
		]);
		vi.advanceTimersByTime(99);
		expect(lines).toHaveLength(2);
		vi.advanceTimersByTime(1);
		// 49 more in the first window; none of the other reason, which says nothing.
		expect(lines.slice(2).map((l) => [l.msg, l.reason, l.count])).toEqual([
			['requests refused', 'wrong or missing callback secret', 49],
		]);
		refusals.refused('wrong or missing callback secret');
		refusals.flush();
		expect(lines.slice(3).map((l) => [l.msg, l.reason, l.count])).toEqual([
			['requests refused', 'wrong or missing callback secret', 1],
		]);
	});
});

describe('callback URLs', () => {
	it('carry the secret in the path, behind any prefix of the public URL', () => {
		const url = callbackUrl('https://w.example.com/hooks/', 'a b/c', 'receipts');
		expect(url).toBe('https://w.example.com/hooks/callbacks/a%20b%2Fc/receipts');
		expect(readCallbackPath(new URL(url).pathname)).toEqual({ secret: 'a b/c', route: 'receipts' });
		expect(readCallbackPath('/callbacks//replies')).toEqual({ secret: '', route: 'replies' });
		expect(readCallbackPath('/callbacks/replies')).toEqual({ secret: '', route: 'replies' });
		expect(readCallbackPath('/health')).toBeUndefined();
	});

	it('compare secrets whole; an empty one never matches', () => {
		expect(secretMatches('0123456789abcdef', '0123456789abcdef')).toBe(true);
		expect(secretMatches('0123456789abcde', '0123456789abcdef')).toBe(false);
		expect(secretMatches('', '')).toBe(false);
	});
});

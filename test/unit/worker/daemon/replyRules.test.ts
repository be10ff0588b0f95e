import { describe, expect, it } from 'vitest';
import type { ReplyCallback } from '../../../../api';
import type { ReplyRule } from '../../../../worker/src/config/workerConfigSchema';
import { matchRules } from '../../../../worker/src/daemon/callbacks/4-replies/matchRules';
import {
	optOutMatcher,
	OPT_IN_KEYWORDS,
	OPT_OUT_KEYWORDS,
} from '../../../../worker/src/config/optOutKeywords';
import { replyContext } from '../../../../worker/src/daemon/callbacks/4-replies/replyContext';
import { readExternalId, runName } from '../../../../worker/src/daemon/callbacks/4-replies/runName';

function reply(
	Text: string,
	From = '+61491570156',
	ExternalId = 'weekly-20300101T090000Z:7',
): ReplyCallback {
	return {
		MessageSid: 'm1',
		OriginalMessageSid: 'o1',
		AccountSid: 'a',
		PropertySid: 'p',
		From,
		To: '+61400000001',
		Text,
		ExternalId,
		Timestamp: 1_900_000_000,
	};
}

const email = (to: string) => ({ type: 'forwardEmail' as const, to: [to] });
function rule(match: ReplyRule['match'], to: string, more: Partial<ReplyRule> = {}): ReplyRule {
	return { match, actions: [email(to)], continue: false, ...more };
}

describe('opt-out keywords', () => {
	const intent = optOutMatcher();
	const table: [string, 'optOut' | 'optIn' | undefined][] = [
		['STOP', 'optOut'],
		['  stop \n', 'optOut'],
		['Stop.', 'optOut'],
		['stop!', 'optOut'],
		['stop;', 'optOut'],
		['STOP ALL', 'optOut'],
		['Stop all!!', 'optOut'],
		['Unsubscribe me', 'optOut'],
		['unsubscribe, thanks', 'optOut'],
		['STOPALL', 'optOut'],
		['opt-out', 'optOut'],
		['Opt out please', 'optOut'],
		['OPTOUT', 'optOut'],
		['end', 'optOut'],
		['Quit.', 'optOut'],
		['cancel', 'optOut'],
		['"Stop"', 'optOut'],
		['Revoke', 'optOut'],
		['Arrêt', 'optOut'],
		['ARRET svp', 'optOut'],
		['alto', 'optOut'],
		['Parar.', 'optOut'],
		['basta!', 'optOut'],
		['Stopp', 'optOut'],
		['Stop sending me these', 'optOut'],
		['START', 'optIn'],
		['start.', 'optIn'],
		['Unstop', 'optIn'],
		['unstop!', 'optIn'],
		["please don't stop sending", undefined],
		['I will not stop you', undefined],
		['STOPPED', undefined],
		['stopwatch for sale?', undefined],
		['Starting Monday', undefined],
		['endless fun', undefined],
		['', undefined],
		['!!!', undefined],
	];
	it.each(table)('%j is %s', (text, expected) => {
		expect(intent(text)?.intent).toBe(expected);
	});

	it('every built-in keyword works in any case, punctuation around it', () => {
		for (const k of OPT_OUT_KEYWORDS)
			expect(intent(` ${k.toLowerCase()}!`)).toEqual({ intent: 'optOut', keyword: k });
		for (const k of OPT_IN_KEYWORDS)
			expect(intent(`${k.toLowerCase()}.`)).toEqual({ intent: 'optIn', keyword: k });
	});

	it('takes keywords from the config besides the built-in ones, words and phrases alike', () => {
		const extended = optOutMatcher({ optOut: ['ARRET', 'no more'], optIn: ['resume messages'] });
		expect(extended('Arrêt')).toEqual({ intent: 'optOut', keyword: 'ARRET' });
		expect(extended('arret!')).toEqual({ intent: 'optOut', keyword: 'ARRET' });
		expect(extended('No more, thanks')).toEqual({ intent: 'optOut', keyword: 'NO MORE' });
		expect(extended('no')).toBeUndefined();
		expect(extended('Resume messages please')).toEqual({
			intent: 'optIn',
			keyword: 'RESUME MESSAGES',
		});
		expect(extended('stop.')?.intent).toBe('optOut');
	});
});

describe('run names and ExternalIds', () => {
	it('name a run by its campaign and tick, without colons', () => {
		const run = runName('weekly', new Date('2030-01-01T09:00:00.123Z'));
		expect(run).toBe('weekly-20300101T090000Z');
		expect(readExternalId(`${run}:12`)).toEqual({ campaign: 'weekly', run, row: 12 });
		expect(readExternalId('plain-campaign:3')).toEqual({
			campaign: 'plain-campaign',
			run: 'plain-campaign',
			row: 3,
		});
		expect(readExternalId('two-part-20300101T090000Z:3')).toEqual({
			campaign: 'two-part',
			run: 'two-part-20300101T090000Z',
			row: 3,
		});
		expect(readExternalId('')).toBeUndefined();
		expect(readExternalId('forward:abc.0.1')).toBeUndefined();
	});
});

describe('reply rules', () => {
	const rules: ReplyRule[] = [
		rule({ keyword: ['YES', 'Y'], campaign: ['weekly'] }, 'bookings@example.com'),
		rule({ regex: '/refund/' }, 'support@example.com', { continue: true }),
		rule({ sender: ['+61491570999'] }, 'vip@example.com'),
		rule({}, 'inbox@example.com'),
	];
	const to = (text: string, from?: string, externalId?: string) =>
		matchRules(rules, replyContext(reply(text, from, externalId), 0)).map((m) => [
			m.key,
			(m.action as { to: string[] }).to[0],
		]);

	it('takes the first rule that matches; a keyword is the first word, in any case', () => {
		expect(to('yes please!')).toEqual([['0.0', 'bookings@example.com']]);
		expect(to('Y')).toEqual([['0.0', 'bookings@example.com']]);
		expect(to('yesterday was fine')).toEqual([['3.0', 'inbox@example.com']]);
	});

	it('needs every condition of a rule: a keyword from another campaign falls through', () => {
		expect(to('YES', undefined, 'monthly-20300101T090000Z:1')).toEqual([
			['3.0', 'inbox@example.com'],
		]);
		expect(to('YES', undefined, '')).toEqual([['3.0', 'inbox@example.com']]);
	});

	it('reads /pattern/flags as written (case matters here) and looks further with continue', () => {
		expect(to('I want a refund')).toEqual([
			['1.0', 'support@example.com'],
			['3.0', 'inbox@example.com'],
		]);
		expect(to('REFUND NOW')).toEqual([['3.0', 'inbox@example.com']]);
	});

	it('matches the sender and the run name too', () => {
		expect(to('hello', '+61491570999')).toEqual([['2.0', 'vip@example.com']]);
		const byRun = [rule({ campaign: ['weekly-20300101T090000Z'] }, 'run@example.com')];
		expect(matchRules(byRun, replyContext(reply('hi'), 0))).toHaveLength(1);
	});

	it('a bare pattern ignores case', () => {
		expect(
			matchRules(
				[rule({ regex: '^hello' }, 'x@example.com')],
				replyContext(reply('HELLO there'), 0),
			),
		).toHaveLength(1);
	});
});

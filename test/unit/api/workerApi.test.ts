import { describe, expect, it } from 'vitest';
import {
	checkCampaignName,
	checkCampaignSettings,
	checkPageNumber,
	checkRecipientPage,
	isCampaignName,
	MAX_PAGE_RECIPIENTS,
	parsePageNumber,
	RUN_NAME_PATTERN,
	settingDifferences,
	workerApiPaths,
} from '../../../api';
import { runName } from '../../../worker/src/daemon/callbacks/4-replies/runName';

const PROPERTY = '0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e';

describe('worker API: campaign names', () => {
	it('takes a config campaign name and refuses others, naming the field', () => {
		expect(isCampaignName('spring-2026_a.b')).toBe(true);
		expect(isCampaignName('a'.repeat(47))).toBe(true);
		expect(isCampaignName('a'.repeat(48))).toBe(false);
		expect(isCampaignName('-spring')).toBe(false);
		expect(isCampaignName('spr ing')).toBe(false);
		expect(checkCampaignName('x/y')?.field).toBe('name');
		expect(checkCampaignName('ok')).toBeUndefined();
	});

	it("leaves room in the longest name for its cron runs' names, which the engine takes", () => {
		const tick = new Date('2026-11-28T03:30:00Z');
		expect(RUN_NAME_PATTERN.test(runName('a'.repeat(47), tick))).toBe(true);
		expect(RUN_NAME_PATTERN.test(runName('a'.repeat(48), tick))).toBe(false);
	});
});

describe('worker API: pages', () => {
	it('numbers pages 1 to 100,000, from the path or a number', () => {
		expect(parsePageNumber('1')).toBe(1);
		expect(parsePageNumber('100000')).toBe(100000);
		expect(parsePageNumber(7)).toBe(7);
		for (const bad of ['0', '100001', '-1', '1.5', 'x', '', '01e2', 2.5])
			expect(parsePageNumber(bad)).toBeUndefined();
		expect(checkPageNumber('0')?.message).toMatch(/1 to 100000/);
	});

	it('takes flat recipients of strings, numbers, booleans and null', () => {
		expect(
			checkRecipientPage({
				recipients: [{ phone: '+61412345678', first_name: 'Ann', n: 3, vip: true, note: null }],
			}),
		).toEqual([]);
	});

	it('names the recipient and field of a nested value', () => {
		const problems = checkRecipientPage({
			recipients: [{ phone: '+61412345678' }, { phone: '+61412345679', tags: ['a'] }],
		});
		expect(problems).toEqual([
			{ field: 'recipients[1].tags', message: expect.stringMatching(/an array/) },
		]);
	});

	it('refuses a page of more than 10,000, an empty page, a non-object and unknown fields', () => {
		const big = Array.from({ length: MAX_PAGE_RECIPIENTS + 1 }, () => ({ phone: '+61412345678' }));
		expect(checkRecipientPage({ recipients: big })[0].message).toMatch(/at most 10,000/);
		expect(
			checkRecipientPage({
				recipients: Array.from({ length: MAX_PAGE_RECIPIENTS }, () => ({ phone: '1' })),
			}),
		).toEqual([]);
		expect(checkRecipientPage({ recipients: [] })[0].field).toBe('recipients');
		expect(checkRecipientPage([])[0].field).toBe('body');
		expect(checkRecipientPage({ recipients: ['+614'] })[0].field).toBe('recipients[0]');
		expect(checkRecipientPage({ recipients: [{ a: 1 }], extra: 1 })[0].field).toBe('extra');
	});
});

describe('worker API: settings', () => {
	it('keeps one form of the same meaning, with the defaults filled in', () => {
		const a = checkCampaignSettings({
			property: PROPERTY,
			text: 'Hi {{first_name}}',
			defaultCountry: 'au',
			schedule: '2026-11-25T20:00:00+11:00',
		});
		expect(a.problems).toEqual([]);
		expect(a.settings).toEqual({
			property: PROPERTY,
			text: 'Hi {{first_name}}',
			defaultCountry: 'AU',
			schedule: '2026-11-25T09:00:00.000Z',
			receipts: true,
			replies: true,
		});
		const b = checkCampaignSettings({
			property: PROPERTY,
			text: 'Hi {{first_name}}',
			defaultCountry: 'AU',
			schedule: '2026-11-25T09:00:00Z',
			receipts: true,
			from: '',
		});
		expect(settingDifferences(a.settings!, b.settings!)).toEqual([]);
	});

	it('names every bad setting', () => {
		const { problems, settings } = checkCampaignSettings({
			text: ' ',
			from: '12',
			rate: -1,
			batchSize: 1001,
			sendWindow: '9-5',
			schedule: 'tomorrow',
			events: 'ftp://x',
			timeZone: 'Mars/Base',
			colour: 'red',
		});
		expect(settings).toBeUndefined();
		expect(problems.map((p) => p.field).sort()).toEqual([
			'batchSize',
			'colour',
			'events',
			'from',
			'property',
			'rate',
			'schedule',
			'sendWindow',
			'text',
			'timeZone',
		]);
	});

	it('wants a zone for a send window, and replies only from a leased number', () => {
		expect(
			checkCampaignSettings({ property: PROPERTY, text: 'x', sendWindow: '09:00-20:00' })
				.problems[0].field,
		).toBe('sendWindow');
		expect(
			checkCampaignSettings({
				property: PROPERTY,
				text: 'x',
				sendWindow: '09:00-20:00',
				timeZone: 'AUS Eastern Standard Time',
			}).problems,
		).toEqual([]);
		expect(
			checkCampaignSettings({ property: PROPERTY, text: 'x', from: 'ACME', replies: true })
				.problems[0].field,
		).toBe('replies');
		expect(
			checkCampaignSettings({ property: PROPERTY, text: 'x', from: 'ACME' }).settings?.replies,
		).toBe(false);
	});

	it('lists the differences setting by setting', () => {
		const a = checkCampaignSettings({ property: PROPERTY, text: 'a', rate: 10 }).settings!;
		const b = checkCampaignSettings({ property: PROPERTY, text: 'b' }).settings!;
		expect(settingDifferences(a, b)).toEqual([
			{ setting: 'text', stored: 'a', given: 'b' },
			{ setting: 'rate', stored: 10, given: null },
		]);
	});

	it('encodes names in paths', () => {
		expect(workerApiPaths.page('spring', 3)).toBe('/api/campaigns/spring/pages/3');
	});
});

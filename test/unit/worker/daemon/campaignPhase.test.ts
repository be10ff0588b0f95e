import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { campaignPhase } from '../../../../worker/src/daemon/dashboard/campaignPhase';
import type { CampaignRecord, DashboardCampaign } from '../../../../worker/src/storage/ledger';
import { emptyFigures } from '../../../../worker/src/storage/dashboardFigures';

/** 2026-11-28 03:00 UTC: 14:00 in Sydney. */
const NOW = Date.UTC(2026, 10, 28, 3);

function campaign(record: Partial<CampaignRecord> = {}, spec = {}): DashboardCampaign {
	return {
		name: 'c',
		spentMicros: 0,
		record: {
			spec: { name: 'c', csvPath: '/x.csv', propertySid: 'PR1', text: 'Hi', ...spec },
			phase: 'sending',
			paused: false,
			importedThrough: 10,
			createdAt: NOW - 60_000,
			updatedAt: NOW - 60_000,
			...record,
		},
	};
}

const figures = (rows: Partial<ReturnType<typeof emptyFigures>['rows']>) => {
	const f = emptyFigures();
	Object.assign(f.rows, rows);
	return f;
};

describe("a campaign's phase on the dashboard, and why", () => {
	it('names who paused it: a person or the guardrail', () => {
		expect(campaignPhase(campaign({ paused: true }), figures({ pending: 3 }), NOW)).toEqual({
			phase: 'paused',
			why: 'paused by a person',
		});
		const braked = campaign({
			paused: true,
			pausedBy: { by: 'daily-spend-cap', detail: 'spent 5.00 of 5.00 today' },
		});
		expect(campaignPhase(braked, figures({ pending: 3 }), NOW).why).toBe(
			'paused by the daily spend cap: spent 5.00 of 5.00 today',
		);
	});

	it('says what it waits for: its schedule, its send window, the variant decision, a worker', () => {
		const later = Math.floor(NOW / 1000) + 3600;
		expect(campaignPhase(campaign({}, { schedule: later }), figures({ pending: 3 }), NOW)).toEqual({
			phase: 'waiting',
			why: 'scheduled for 2026-11-28T04:00:00Z',
		});
		// 14:00 in Sydney, its window 18:00-20:00.
		const windowed = campaign(
			{},
			{ sendWindow: '18:00-20:00', timeZone: 'AUS Eastern Standard Time' },
		);
		expect(campaignPhase(windowed, figures({ pending: 3 }), NOW)).toEqual({
			phase: 'waiting',
			why: 'outside its send window 18:00-20:00 (Australia/Sydney): opens 2026-11-28T07:00:00Z',
		});
		expect(campaignPhase(campaign(), figures({ held: 8, accepted: 2 }), NOW)).toEqual({
			phase: 'waiting',
			why: '8 rows held for the variant decision',
		});
		expect(campaignPhase(campaign(), figures({ pending: 3 }), NOW).why).toMatch(
			/^no worker runs it now/,
		);
		const owner = { pid: process.pid, host: hostname(), token: 't', heartbeatAt: NOW };
		expect(campaignPhase(campaign({ owner }), figures({ pending: 3 }), NOW)).toEqual({
			phase: 'sending',
			why: 'sending',
		});
	});

	it('is over once finished or cancelled, whatever the flags', () => {
		expect(
			campaignPhase(campaign({ phase: 'finished', paused: true }), figures({ uncertain: 2 }), NOW),
		).toEqual({
			phase: 'finished',
			why: '2 uncertain',
		});
		expect(campaignPhase(campaign({ phase: 'cancelled' }), figures({}), NOW).phase).toBe(
			'cancelled',
		);
	});
});

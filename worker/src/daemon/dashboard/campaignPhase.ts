import { STALE_OWNER_MS } from '../../errors';
import type { DashboardCampaign, DashboardFigures } from '../../storage/ledger';
import { ownerIsAlive } from '../../storage/ownerIsAlive';
import { insideWindow, nextWindowOpening, parseSendWindow } from '../../schedule/sendWindow';
import { localSecondOfDay, resolveTimeZone } from '../../schedule/timeZone';

/** Where a campaign stands, as the dashboard sorts and filters it. */
export const PHASES = [
	'sending',
	'paused',
	'waiting',
	'draft',
	'finished',
	'cancelled',
	'failed',
] as const;
export type DashboardPhase = (typeof PHASES)[number];

const GUARDRAILS: Record<string, string> = {
	'spend-cap': 'its spend cap',
	'daily-spend-cap': 'the daily spend cap',
	'failure-rate': 'the failure-rate brake',
};

/** An API campaign's failure, as its status gives it (a setting that cannot work, its run stopped). */
export const failedWhy = (e: { reason?: string }) => `failed: ${e.reason ?? 'its run stopped'}`;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The phase and, in words, why: who or which guardrail paused it, what it waits for (its
 * schedule, its send window, a variant decision, a worker to take it up).
 */
export function campaignPhase(
	c: DashboardCampaign,
	f: DashboardFigures,
	now: number,
	/** Its API record says it failed: the ledger keeps the rows its run left, in no end of its own. */
	failed?: { reason?: string },
): { phase: DashboardPhase; why: string } {
	if (failed) return { phase: 'failed', why: failedWhy(failed) };
	const { record } = c;
	const sent = f.rows.accepted + f.rows.rejected + f.rows.uncertain;
	if (record.phase === 'finished')
		return {
			phase: 'finished',
			why: f.rows.uncertain > 0 ? `${f.rows.uncertain} uncertain` : 'done',
		};
	if (record.phase === 'cancelled') return { phase: 'cancelled', why: 'cancelled' };
	if (record.paused)
		return {
			phase: 'paused',
			why: record.pausedBy
				? `paused by ${GUARDRAILS[record.pausedBy.by] ?? record.pausedBy.by}: ${record.pausedBy.detail}`
				: 'paused by a person',
		};
	const spec = record.spec;
	if (spec.schedule !== undefined && spec.schedule * 1000 > now && sent === 0)
		return { phase: 'waiting', why: `scheduled for ${iso(spec.schedule * 1000)}` };
	const toSend = f.rows.pending + f.rows.submitting;
	if (f.rows.held > 0 && toSend === 0)
		return { phase: 'waiting', why: `${f.rows.held} rows held for the variant decision` };
	if (spec.sendWindow !== undefined && spec.timeZoneColumn === undefined && toSend > 0) {
		const zone = resolveTimeZone(spec.timeZone ?? 'UTC') ?? 'UTC';
		try {
			const w = parseSendWindow(spec.sendWindow);
			const s = Math.floor(now / 1000);
			if (!insideWindow(localSecondOfDay(s, zone), w))
				return {
					phase: 'waiting',
					why: `outside its send window ${spec.sendWindow} (${zone}): opens ${iso(nextWindowOpening(s, w, zone) * 1000)}`,
				};
		} catch {
			// A window the run would refuse says so where the run is started.
		}
	}
	// Whichever process runs it (this worker, another on the database, the CLI) holds it with a heartbeat.
	if (record.owner !== undefined && ownerIsAlive(record.owner, STALE_OWNER_MS, now))
		return {
			phase: 'sending',
			why: record.phase === 'importing' ? 'importing its list' : 'sending',
		};
	if (toSend > 0 || record.phase === 'importing')
		return { phase: 'waiting', why: 'no worker runs it now: it goes on at its next run or resume' };
	return { phase: 'sending', why: 'settling its last answers' };
}

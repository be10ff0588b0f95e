import type { CampaignSpec } from '../settings/campaignSpec';
import type { CampaignPhase, CampaignRecord, CancelledBy, PausedBy, RowStatus } from './ledger';

/** A recipients row as the ledger selects it. */
export interface RecipientDbRow {
	line: number;
	to_number: string | null;
	text: string | null;
	segments: number;
	status: RowStatus;
	error_code: string | null;
	message: string | null;
	message_sid: string | null;
}

/** A campaigns row; `paused` is 0/1 in SQLite, a boolean in Postgres. */
export interface CampaignDbRow {
	spec: string;
	phase: CampaignPhase;
	paused: number | boolean;
	imported_through: number;
	created_at: number;
	updated_at: number;
	owner_pid: number | null;
	owner_host: string | null;
	owner_token: string | null;
	heartbeat_at: number | null;
	/** The InputMark (SQLite schema 7, Postgres 4). */
	input_bytes?: number | null;
	input_hash?: string | null;
	input_size?: number | null;
	input_mtime?: number | null;
	/** The guardrail that paused it, as JSON {by, detail} (guardSql.ts). */
	paused_by?: string | null;
	/** The cancel its run had to settle, as JSON {reason, at}. */
	cancelled_by?: string | null;
}

export function campaignRecord(row: CampaignDbRow | undefined): CampaignRecord | undefined {
	if (!row) return undefined;
	return {
		spec: JSON.parse(row.spec) as CampaignSpec,
		phase: row.phase,
		paused: row.paused === 1 || row.paused === true,
		...(row.paused_by ? { pausedBy: JSON.parse(row.paused_by) as PausedBy } : {}),
		...(row.cancelled_by ? { cancelledBy: JSON.parse(row.cancelled_by) as CancelledBy } : {}),
		importedThrough: row.imported_through,
		input: row.input_hash
			? {
					bytes: row.input_bytes ?? 0,
					hash: row.input_hash,
					size: row.input_size ?? 0,
					mtimeMs: row.input_mtime ?? undefined,
				}
			: undefined,
		createdAt: row.created_at,
		updatedAt: row.updated_at,
		owner:
			row.owner_token !== null
				? {
						pid: row.owner_pid ?? 0,
						host: row.owner_host ?? '',
						token: row.owner_token,
						heartbeatAt: row.heartbeat_at ?? undefined,
					}
				: undefined,
	};
}

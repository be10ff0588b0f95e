import type Database from 'better-sqlite3';
import { decodeSids } from './answerSids';
import { forgottenKey, inTimeOrder, type ContactEvent, type ContactHistory, type ForgetResult } from './contact';

interface Row {
	campaign: string;
	line: number;
	status: string;
	text: string | null;
	message_sid: string | null;
	attempted_at: number | null;
	message: string | null;
}

/** Every row, receipt, reply and consent change of one number, across the campaigns of a SQLite ledger. */
export function sqliteContactHistory(db: Database.Database, number: string): ContactHistory {
	const events: ContactEvent[] = [];
	// No index on numbers (it would slow every import): one scan, for one person's request.
	const rows = db.prepare(`SELECT campaign, line, status, text, message_sid, attempted_at, message FROM recipients WHERE to_number = ?`).all(number) as Row[];
	const answer = db.prepare(`SELECT sids, at FROM answers WHERE campaign = ? AND first <= ? AND last >= ? ORDER BY id DESC LIMIT 1`);
	const delivery = db.prepare(`SELECT message_sid, status, error_code, at, received_at FROM deliveries WHERE campaign = ? AND line = ?`);
	const replies = db.prepare(`SELECT message_sid, at, opt_out FROM replies WHERE campaign = ? AND line = ?`);
	for (const r of rows) {
		const a = answer.get(r.campaign, r.line, r.line) as { sids: string; at: number | null } | undefined;
		const sid = r.message_sid ?? (a ? decodeSids(a.sids).find(([line]) => line === r.line)?.[1] : undefined);
		const sentAt = r.status === 'accepted' || r.status === 'rejected' ? (a?.at ?? r.attempted_at ?? undefined) : (r.attempted_at ?? undefined);
		events.push({ at: sentAt, kind: 'message', campaign: r.campaign, line: r.line, status: r.status, text: r.text ?? undefined, messageSid: sid, detail: r.message ?? undefined });
		const d = delivery.get(r.campaign, r.line) as { message_sid: string; status: string; error_code: string | null; at: number; received_at: number | null } | undefined;
		if (d) events.push({ at: d.received_at ?? d.at * 1000, kind: 'receipt', campaign: r.campaign, line: r.line, status: d.status, messageSid: d.message_sid, detail: d.error_code ?? undefined });
		for (const p of replies.all(r.campaign, r.line) as { message_sid: string; at: number; opt_out: number }[]) {
			events.push({ at: p.at, kind: 'reply', campaign: r.campaign, line: r.line, messageSid: p.message_sid, detail: p.opt_out ? 'opted out' : undefined });
		}
	}
	for (const c of db.prepare(`SELECT at, kind, reason FROM consent_events WHERE number = ?`).all(number) as { at: number; kind: 'opt-out' | 'opt-in'; reason: string }[]) {
		events.push({ at: c.at, kind: c.kind, detail: c.reason });
	}
	const s = db.prepare(`SELECT reason, created_at FROM suppressions WHERE number = ?`).get(number) as { reason: string; created_at: number } | undefined;
	return { number, suppressed: s ? { reason: s.reason, since: s.created_at } : undefined, events: inTimeOrder(events) };
}

/** Erases a number from a SQLite ledger, in one transaction; its suppression stays, under its hash. */
export function sqliteForgetContact(db: Database.Database, number: string): ForgetResult {
	// Erased means gone from the file: deleted content is overwritten, and the WAL written
	// back and emptied, not left in free pages for anyone reading the bytes.
	db.pragma('secure_delete = ON');
	const result = db
		.transaction((): ForgetResult => {
			const rows = db.prepare(`SELECT campaign, line FROM recipients WHERE to_number = ?`).all(number) as { campaign: string; line: number }[];
			for (const table of ['deliveries', 'replies', 'message_sids', 'recipients']) {
				const erase = db.prepare(`DELETE FROM ${table} WHERE campaign = ? AND line = ?`);
				for (const r of rows) erase.run(r.campaign, r.line);
			}
			const key = forgottenKey(number);
			const kept = db.prepare(`UPDATE OR REPLACE suppressions SET number = ? WHERE number = ?`).run(key, number).changes > 0;
			db.prepare(`UPDATE consent_events SET number = ? WHERE number = ?`).run(key, number);
			// The worker's tables share the file when it ran on it: the callbacks it stored and
			// the forwards of replies carry the number in their payload.
			let callbacks = 0;
			for (const table of ['callback_events', 'forwards']) {
				if (db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) === undefined) continue;
				callbacks += db.prepare(`DELETE FROM ${table} WHERE instr(payload, ?) > 0`).run(JSON.stringify(number).slice(1, -1)).changes;
			}
			return { rows: rows.length, campaigns: [...new Set(rows.map((r) => r.campaign))].sort(), suppressionKept: kept, callbacks };
		})
		.immediate();
	db.pragma('wal_checkpoint(TRUNCATE)');
	return result;
}

import { columnIndex } from '../../../api';
import { RowErrors } from '../rows/rowErrors';
import type { CampaignSpec } from '../settings/campaignSpec';
import type { ConsentRecord, ImportRow, InputMark, Ledger } from '../storage/ledger';
import type { RowSink } from './readStage';

/** Where a list keeps its consent: column indexes, checked already by mapColumns. */
export interface ConsentColumns {
	source?: number;
	at?: number;
	require: boolean;
}

export function consentColumns(header: string[], spec: CampaignSpec): ConsentColumns {
	const index = (name: string | undefined) =>
		name === undefined ? undefined : columnIndex(header, name);
	return {
		source: index(spec.consentColumn),
		at: index(spec.consentAtColumn),
		require: spec.requireConsent ?? false,
	};
}

/** A consent cell's time as Unix milliseconds; undefined when blank or not a date. */
function consentTime(cell: string | undefined): number | undefined {
	const t = cell?.trim() ? Date.parse(cell.trim()) : NaN;
	return Number.isNaN(t) ? undefined : t;
}

/**
 * A run's rows go to the ledger, with the import mark, one transaction per batch; with
 * their numbers' consent, read from the list, stored the first time a number is seen.
 */
export class LedgerSink implements RowSink {
	constructor(
		private readonly ledger: Ledger,
		private readonly campaign: string,
		private readonly consent: ConsentColumns = { require: false },
	) {}

	async accept(
		rows: ImportRow[],
		throughLine: number,
		items: unknown,
		input?: InputMark,
	): Promise<void> {
		const { source, at, require } = this.consent;
		if (source === undefined) {
			await this.ledger.importBatch(this.campaign, rows, throughLine, input);
			return;
		}
		const fields = new Map<number, string[]>();
		for (const item of items as { line: number; fields?: string[] }[])
			if (item.fields) fields.set(item.line, item.fields);
		const consents: ConsentRecord[] = [];
		const without: ImportRow[] = [];
		for (const row of rows) {
			if (row.status !== 'pending' || row.to === undefined) continue;
			const f = fields.get(row.line);
			const given = f?.[source]?.trim();
			if (given)
				consents.push({
					number: row.to,
					source: given,
					at: consentTime(at === undefined ? undefined : f?.[at]) ?? Date.now(),
				});
			else if (require) without.push(row);
		}
		if (without.length > 0) {
			// Kept from an earlier list: a number that consented once need not say so in every list.
			const known = await this.ledger.consentedAmong(without.map((r) => r.to!));
			for (const row of without)
				if (!known.has(row.to!)) {
					row.status = 'invalid';
					row.errorCode = RowErrors.NoConsent;
					row.message = 'no consent for this number, in the list or recorded before';
				}
		}
		await this.ledger.importBatch(this.campaign, rows, throughLine, input, consents);
	}
}

import type { Ledger, ImportRow, InputMark } from '../storage/ledger';
import type { RowSink } from './readStage';

/** A run's rows go to the ledger, with the import mark, one transaction per batch. */
export class LedgerSink implements RowSink {
	constructor(
		private readonly ledger: Ledger,
		private readonly campaign: string,
	) {}

	async accept(
		rows: ImportRow[],
		throughLine: number,
		_items: unknown,
		input?: InputMark,
	): Promise<void> {
		await this.ledger.importBatch(this.campaign, rows, throughLine, input);
	}
}

import type { CsvItem } from '../csv/csvItem';
import {
	ROW_STATUSES,
	type ImportRow,
	type StatusCounts,
	type TrackedLink,
} from '../storage/ledger';
import type { OutFile } from './outFile';
import type { RowRules } from '../rows/rowRules';
import { RowValidator } from '../rows/rowValidator';
import { ForecastTally } from './dryRunForecast';
import type { RowSink } from './readStage';
import type { SpendFit } from './spendCap';
import { RefusedTally } from './refusedTally';
import { FREQUENCY_CAPPED, type FrequencyCapCheck } from './frequencyCap';

/** A dry run's row whose number is at its frequency cap now: a run would hold it back. */
type CappedRow = Omit<ImportRow, 'status'> & { status: 'capped' };

const PREVIEW = 3;

export interface DryRunSample {
	line: number;
	to: string;
	text: string;
	segments: number;
	links?: TrackedLink[];
}

/** A dry run's rows: counted, written to --out, a few rendered for a preview; nothing stored. */
export class DryRunSink implements RowSink {
	readonly rows: StatusCounts = Object.fromEntries(ROW_STATUSES.map((s) => [s, 0])) as StatusCounts;
	segments = 0;
	readonly preview: DryRunSample[] = [];
	/** One per text: a variant campaign's rows are rendered with their own text. */
	private readonly previewers: RowValidator[];
	/** A variant campaign's first valid row as each text renders it. */
	readonly samples: DryRunSample[] = [];
	readonly tally: ForecastTally;
	readonly refused = new RefusedTally();

	constructor(
		rules: RowRules,
		private readonly out: OutFile | undefined,
		private readonly now: () => number,
		/** --max-cost: how many rows fit under it. */
		readonly spendFit?: SpendFit,
		/** A variant campaign's texts, --text first. */
		texts: string[] = [rules.text],
		/** --frequency-cap: rows whose number is at its cap now are counted capped, not valid. */
		private readonly frequency?: FrequencyCapCheck,
	) {
		this.previewers = texts.map((text) => new RowValidator({ ...rules, text, wantText: true }));
		this.tally = new ForecastTally(rules.smartEncoding ?? false);
	}

	async accept(rows: ImportRow[], _through: number, items: CsvItem[]): Promise<void> {
		const capped = this.frequency
			? await this.frequency.reachedAmong(
					rows.filter((r) => r.status === 'pending').map((r) => r.to!),
				)
			: new Set<string>();
		for (const row of rows) {
			const r: ImportRow | CappedRow =
				row.status === 'pending' && capped.has(row.to!)
					? {
							...row,
							status: 'capped',
							errorCode: FREQUENCY_CAPPED,
							message: this.frequency!.reason,
						}
					: row;
			this.rows[r.status]++;
			if (r.status === 'invalid') this.refused.add(r);
			if (r.status === 'pending') {
				this.segments += r.segments;
				this.spendFit?.add(r.segments);
				if (this.preview.length < PREVIEW) this.addPreview(r.line, items, r.variant);
				if (this.samples.length === 0 && this.previewers.length > 1)
					for (let i = 0; i < this.previewers.length; i++) {
						const sample = this.render(r.line, items, i + 1);
						if (sample) this.samples.push(sample);
					}
				const examples = this.tally.examples.length;
				this.tally.add(r);
				// A UCS-2 example is shown with its text, rendered again here for the few shown.
				if (this.tally.examples.length > examples)
					this.tally.examples[examples].text =
						r.text ?? this.render(r.line, items, r.variant)?.text;
			}
			if (this.out) {
				const valid = r.status === 'pending';
				await this.out.write({
					line: r.line,
					to: r.to,
					status: valid ? 'valid' : r.status,
					errorCode: r.errorCode,
					message: r.message,
					text: valid ? r.text : undefined,
					segments: valid ? r.segments : undefined,
				});
			}
		}
	}

	private addPreview(line: number, items: CsvItem[], variant?: number): void {
		const v = this.render(line, items, variant);
		if (v) this.preview.push(v);
	}

	/** The row as `variant` (1 is --text) renders it. */
	private render(line: number, items: CsvItem[], variant = 1): DryRunSample | undefined {
		const item = items.find((i) => i.line === line);
		if (!item || !('fields' in item)) return undefined;
		const v = this.previewers[variant - 1].validate(item, this.now());
		return v.ok && v.text !== undefined
			? {
					line,
					to: v.to,
					text: v.text,
					segments: v.segments,
					...(v.links ? { links: v.links } : {}),
				}
			: undefined;
	}
}

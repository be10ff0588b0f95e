import { isCsvError, type CsvItem } from '../csv/csvItem';
import type { CsvSource } from '../csv/openCsv';
import type { ImportRow, InputMark } from '../storage/ledger';
import type { Reporter } from './reporter';
import { NumberSet } from '../rows/numberSet';
import { RowErrors } from '../rows/rowErrors';
import type { RowJudge } from '../rows/rowJudge';
import type { RowInput, RowVerdict } from '../rows/rowRules';
import type { RowProblem } from './campaignSummary';

/** Where judged rows go: the ledger for a run, counters and --out for a dry run. */
export interface RowSink {
	accept(
		rows: ImportRow[],
		throughLine: number,
		items: CsvItem[],
		input?: InputMark,
	): Promise<void>;
}

export interface ReadStageInput {
	csv: CsvSource;
	judge: RowJudge;
	sink: RowSink;
	/** Lines up to here are in the ledger already (a resumed import). */
	importedThrough: number;
	/** Numbers already in the campaign, and those on the suppression list. */
	seen: NumberSet;
	suppressed: { has(e164: string): boolean };
	/** Batches in flight to the judge: enough to keep its threads busy, few enough to bound memory. */
	inFlight: number;
	reporter: Reporter;
	signal?: AbortSignal;
	now: () => number;
}

export interface ReadStageResult {
	rows: number;
	firstErrors: RowProblem[];
	/** Lines read with a warning (a quote inside an unquoted field). */
	warnings: number;
	interrupted: boolean;
}

const FIRST_ERRORS = 10;
/** Warnings shown line by line; the rest are counted. */
const FIRST_WARNINGS = 10;

/**
 * read -> validate: streams the CSV, has every row judged, then decides duplicates and
 * suppressions in file order (first occurrence wins) and hands the rows to the sink.
 */
export async function readStage(input: ReadStageInput): Promise<ReadStageResult> {
	const { csv, sink, reporter, seen, suppressed } = input;
	const firstErrors: RowProblem[] = [];
	const started = performance.now();
	let rows = 0;
	let warnings = 0;
	let lastProgress = 0;
	const queue: {
		items: CsvItem[];
		bytes: number;
		input?: InputMark;
		verdicts: Promise<RowVerdict[]>;
	}[] = [];

	const problem = (line: number, code: string, reason: string, to?: string) => {
		reporter.rowError(line, code, reason);
		if (firstErrors.length < FIRST_ERRORS) firstErrors.push({ line, code, reason, to });
	};

	const drain = async (entry: {
		items: CsvItem[];
		bytes: number;
		input?: InputMark;
		verdicts: Promise<RowVerdict[]>;
	}) => {
		const verdicts = await entry.verdicts;
		const out: ImportRow[] = [];
		let v = 0;
		let through = 0;
		for (const item of entry.items) {
			if (isCsvError(item)) {
				const where = item.endLine > item.line ? ` (lines ${item.line}-${item.endLine})` : '';
				out.push({
					line: item.line,
					segments: 0,
					status: 'invalid',
					errorCode: RowErrors.CsvMalformed,
					message: item.error + where,
				});
				problem(item.line, RowErrors.CsvMalformed, item.error + where);
				through = Math.max(through, item.endLine);
				continue;
			}
			through = Math.max(through, item.line);
			if (item.warning !== undefined && ++warnings <= FIRST_WARNINGS)
				reporter.event(
					'csv-warning',
					{ line: item.line, warning: item.warning },
					`line ${item.line}: ${item.warning}`,
				);
			const verdict = verdicts[v++];
			if (!verdict.ok) {
				out.push({
					line: verdict.line,
					to: verdict.to,
					segments: 0,
					status: 'invalid',
					errorCode: verdict.code,
					message: verdict.reason,
				});
				problem(verdict.line, verdict.code, verdict.reason, verdict.to);
			} else if (suppressed.has(verdict.to)) {
				out.push({
					line: verdict.line,
					to: verdict.to,
					segments: verdict.segments,
					status: 'suppressed',
					errorCode: RowErrors.Suppressed,
					message: 'the number is on the suppression list',
				});
			} else if (!seen.add(verdict.to)) {
				out.push({
					line: verdict.line,
					to: verdict.to,
					segments: verdict.segments,
					status: 'duplicate',
					errorCode: RowErrors.Duplicate,
					message: 'an earlier row has the same number',
				});
			} else {
				const row: ImportRow = {
					line: verdict.line,
					to: verdict.to,
					text: verdict.text,
					segments: verdict.segments,
					status: 'pending',
					timeZone: verdict.timeZone,
				};
				if (verdict.ucs2 !== undefined) row.ucs2 = verdict.ucs2;
				if (verdict.otherSegments !== undefined) row.otherSegments = verdict.otherSegments;
				if (verdict.links !== undefined) row.links = verdict.links;
				if (verdict.variants !== undefined) row.variants = verdict.variants;
				out.push(row);
			}
		}
		rows += entry.items.length;
		await sink.accept(out, through, entry.items, entry.input);
		const now = performance.now();
		if (now - lastProgress > 200) {
			lastProgress = now;
			// Rows per byte up to the batch just drained, scaled to the file: batches in flight
			// to the validators are not counted on one side only, so the figure holds steady.
			const total =
				entry.bytes > 0 && csv.size > 0
					? Math.max(rows, Math.round((rows * csv.size) / Math.min(csv.size, entry.bytes)))
					: rows;
			const rate = rows / Math.max(0.001, (now - started) / 1000);
			reporter.progress({
				stage: 'read',
				done: rows,
				total,
				rate,
				etaSeconds: rate > 0 ? (total - rows) / rate : undefined,
				unit: 'rows',
			});
		}
	};

	let interrupted = false;
	for await (const { items: batch, bytes, input: inputMark } of csv.batches) {
		if (input.signal?.aborted) {
			interrupted = true;
			break;
		}
		const items =
			input.importedThrough > 0 ? batch.filter((i) => i.line > input.importedThrough) : batch;
		if (items.length === 0) continue;
		const records = items.filter((i) => !isCsvError(i)) as RowInput[];
		const verdicts =
			records.length > 0 ? input.judge.judge(records, input.now()) : Promise.resolve([]);
		// Keep the rejection for the drain that awaits it, not the unhandled-rejection hook.
		verdicts.catch(() => undefined);
		queue.push({ items, bytes, input: inputMark, verdicts });
		if (queue.length >= input.inFlight) await drain(queue.shift()!);
	}
	while (queue.length > 0) await drain(queue.shift()!);
	if (warnings > FIRST_WARNINGS)
		reporter.event(
			'csv-warnings',
			{ count: warnings },
			`${warnings} lines in all have a quote inside an unquoted field, read as a character`,
		);
	return { rows, firstErrors, warnings, interrupted };
}

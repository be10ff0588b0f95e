import type { CampaignSummary } from '../campaign/campaignSummary';
import type { Progress, Reporter } from '../campaign/reporter';

/** Row errors held back at most this long, or this many characters, before they are written. */
const ROW_ERRORS_MS = 100;
const ROW_ERRORS_CHARS = 64 * 1024;

/**
 * One JSON object per line on stdout, for log collectors and scripts. Row errors, which a
 * bad list has by the hundred thousand, are written in blocks rather than a write each;
 * every other line first writes the ones before it, so the order is the order of events.
 */
export class JsonReporter implements Reporter {
	private lastProgress = 0;
	private rowErrors = '';
	private rowErrorsTimer: NodeJS.Timeout | undefined;

	constructor(
		private readonly write: (line: string) => void = (line) => process.stdout.write(line),
		private readonly progressEveryMs = 1000,
	) {}

	private line(fields: Record<string, unknown>): string {
		return JSON.stringify({ time: new Date().toISOString(), ...fields }) + '\n';
	}

	private emit(fields: Record<string, unknown>): void {
		this.flush();
		this.write(this.line(fields));
	}

	private flush(): void {
		if (this.rowErrorsTimer) clearTimeout(this.rowErrorsTimer);
		this.rowErrorsTimer = undefined;
		if (this.rowErrors === '') return;
		const block = this.rowErrors;
		this.rowErrors = '';
		this.write(block);
	}

	event(name: string, fields: Record<string, unknown>, text: string): void {
		this.emit({ event: name, message: text, ...fields });
	}

	rowError(line: number, code: string, reason: string): void {
		this.rowErrors += this.line({ event: 'row-error', line, code, reason });
		if (this.rowErrors.length >= ROW_ERRORS_CHARS) this.flush();
		else if (!this.rowErrorsTimer) {
			this.rowErrorsTimer = setTimeout(() => this.flush(), ROW_ERRORS_MS);
			this.rowErrorsTimer.unref();
		}
	}

	progress(p: Progress): void {
		const now = performance.now();
		if (now - this.lastProgress < this.progressEveryMs) return;
		this.lastProgress = now;
		this.emit({
			event: 'progress',
			stage: p.stage,
			done: p.done,
			total: p.total,
			unit: p.unit,
			rate: Math.round(p.rate * 10) / 10,
			etaSeconds: p.etaSeconds === undefined ? undefined : Math.round(p.etaSeconds),
		});
	}

	summary(s: CampaignSummary): void {
		this.emit({ event: 'summary', ...s });
	}

	close(): void {
		this.flush();
	}
}

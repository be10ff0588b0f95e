import type { CampaignSummary } from '../campaign/campaignSummary';
import type { Progress, Reporter } from './reporter';

/** One JSON object per line on stdout, for log collectors and scripts. */
export class JsonReporter implements Reporter {
	private lastProgress = 0;

	constructor(
		private readonly write: (line: string) => void = (line) => process.stdout.write(line),
		private readonly progressEveryMs = 1000,
	) {}

	private emit(fields: Record<string, unknown>): void {
		this.write(JSON.stringify({ time: new Date().toISOString(), ...fields }) + '\n');
	}

	event(name: string, fields: Record<string, unknown>, text: string): void {
		this.emit({ event: name, message: text, ...fields });
	}

	rowError(line: number, code: string, reason: string): void {
		this.emit({ event: 'row-error', line, code, reason });
	}

	progress(p: Progress): void {
		const now = performance.now();
		if (now - this.lastProgress < this.progressEveryMs) return;
		this.lastProgress = now;
		this.emit({ event: 'progress', stage: p.stage, done: p.done, total: p.total, unit: p.unit, rate: Math.round(p.rate * 10) / 10, etaSeconds: p.etaSeconds === undefined ? undefined : Math.round(p.etaSeconds) });
	}

	summary(s: CampaignSummary): void {
		this.emit({ event: 'summary', ...s });
	}

	close(): void {}
}

import type { CampaignSummary } from '../../campaign/campaignSummary';
import type { Progress, Reporter } from '../../campaign/reporter';
import type { Logger } from '../jsonLogger';
import { maskQuotedNumbers } from '../phoneMask';

/** The campaign engine's reports as the daemon's own log lines, one run's fields on each. */
export class LogReporter implements Reporter {
	private lastProgress = 0;

	constructor(
		private readonly log: Logger,
		private readonly progressEveryMs = 10_000,
		/** Config log.phoneNumbers: a row error's reason quotes the number it could not read. */
		private readonly phoneNumbers: 'masked' | 'full' = 'masked',
	) {}

	event(name: string, fields: Record<string, unknown>, text: string): void {
		const level = name === 'uncertain' || name === 'retry' ? 'warn' : 'info';
		this.log[level](`campaign ${name}`, { ...fields, text });
	}

	rowError(line: number, code: string, reason: string): void {
		this.log.warn('campaign row error', {
			line,
			code,
			reason: this.phoneNumbers === 'full' ? reason : maskQuotedNumbers(reason),
		});
	}

	progress(p: Progress): void {
		const now = performance.now();
		if (now - this.lastProgress < this.progressEveryMs) return;
		this.lastProgress = now;
		this.log.info('campaign progress', {
			stage: p.stage,
			done: p.done,
			total: p.total,
			rate: Math.round(p.rate * 10) / 10,
		});
	}

	summary(s: CampaignSummary): void {
		const level = s.stop === 'failed' || s.rows.uncertain > 0 ? 'error' : 'info';
		this.log[level]('campaign summary', {
			stop: s.stop,
			rows: s.rows,
			total: s.total,
			segments: s.segments,
			seconds: Math.round(s.seconds * 10) / 10,
			uncertainLines: s.uncertainLines.slice(0, 100),
			message: s.message,
		});
	}

	close(): void {}
}

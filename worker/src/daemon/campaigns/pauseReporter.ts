import type { CampaignSummary } from '../../campaign/campaignSummary';
import type { Progress, Reporter } from '../../campaign/reporter';

/**
 * A run's reporter that also tells `onPause` when the engine has seen the campaign paused
 * (`cloudtel campaign pause`, or a guardrail, which `guardrail` names): its
 * campaign.paused is due now, not when the run ends.
 */
export class PauseReporter implements Reporter {
	constructor(
		private readonly inner: Reporter,
		private readonly onPause: (guardrail: boolean) => void,
	) {}

	event(name: string, fields: Record<string, unknown>, text: string): void {
		this.inner.event(name, fields, text);
		if (name === 'paused') this.onPause(fields.pausedBy !== undefined);
	}

	rowError(line: number, code: string, reason: string): void {
		this.inner.rowError(line, code, reason);
	}

	progress(p: Progress): void {
		this.inner.progress(p);
	}

	summary(s: CampaignSummary): void {
		this.inner.summary(s);
	}

	close(): void {
		this.inner.close();
	}
}

import type { CampaignSummary } from '../../campaign/campaignSummary';
import type { Progress, Reporter } from '../../campaign/reporter';

/** A preview's reporter: the API answers with the summary, nothing is logged. */
export class SilentReporter implements Reporter {
	event(_name: string, _fields: Record<string, unknown>, _text: string): void {}
	rowError(_line: number, _code: string, _reason: string): void {}
	progress(_p: Progress): void {}
	summary(_s: CampaignSummary): void {}
	close(): void {}
}

import type { CampaignSummary } from './campaignSummary';

export type Stage = 'read' | 'send' | 'wait';

export interface Progress {
	stage: Stage;
	done: number;
	total: number;
	/** Per second, over the stage so far. */
	rate: number;
	etaSeconds?: number;
	unit: string;
}

/** Where a run tells a person (or a log collector) what it is doing. */
export interface Reporter {
	event(name: string, fields: Record<string, unknown>, text: string): void;
	rowError(line: number, code: string, reason: string): void;
	progress(p: Progress): void;
	summary(s: CampaignSummary): void;
	close(): void;
}

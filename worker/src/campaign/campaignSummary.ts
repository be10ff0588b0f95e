import type { CampaignPhase, PausedBy, StatusCounts, TrackedLink } from '../storage/ledger';
import type { DryRunForecast } from './dryRunForecast';

export interface RowProblem {
	line: number;
	code: string;
	reason: string;
	to?: string;
}

/** What a dry run tells of each text: its test rows, and what the rest would cost if it won. */
export interface VariantForecast {
	text: string;
	testRows: number;
	testSegments: number;
	restRows: number;
	/** Segments of the rest of the list if this text wins. */
	restSegments: number;
	/** Rows UCS-2 (70 characters a part) with this text, test and rest. */
	ucs2Rows: number;
	/** The characters outside GSM-7 that make this text's rows UCS-2, each once ('' when none). */
	ucs2Characters: string;
	/** With a price per segment: the test's cost with this text, and the rest's if it wins. */
	testCost?: number;
	restCost?: number;
	/** The first valid row as this text renders it. */
	sample?: { line: number; to: string; text: string; segments: number };
}

export type StopReason = 'finished' | 'paused' | 'cancelled' | 'interrupted' | 'waiting' | 'failed';

export interface CampaignSummary {
	campaign: string;
	dryRun: boolean;
	stop: StopReason;
	phase?: CampaignPhase;
	rows: StatusCounts;
	total: number;
	/** Segments of accepted messages (or, in a dry run, of the valid ones). */
	segments: number;
	/** Messages the provider answered, per second of the send stage. */
	sendRate?: number;
	seconds: number;
	firstErrors: RowProblem[];
	/** Lines whose answer was lost; sent again only with --resend-uncertain. */
	uncertainLines: number[];
	/** `links`: with --track-links, each example link and the URL it stands for (its token is not stored). */
	preview?: { line: number; to: string; text: string; segments: number; links?: TrackedLink[] }[];
	/** A dry run's: cost, UCS-2 and its causes, smart encoding, countries, the finish. */
	forecast?: DryRunForecast;
	/** A variant campaign's dry run: each text's test rows, and what the rest would cost with it. */
	variants?: VariantForecast[];
	/** A variant campaign waiting for its decision: when it is due (ISO). */
	decideAt?: string;
	message?: string;
	/** The guardrail that paused the campaign (`paused` stop): spend-cap, ... */
	pausedBy?: PausedBy['by'];
	/** The run stopped because its database failed under it (down, full): resuming it later is right. */
	storeFault?: boolean;
	exitCode: number;
}

import type { CampaignPhase, LedgerReader, RowStatus, StatusCounts } from '../storage/ledger';
import { localTime } from '../schedule/localTime';
import { resolveTimeZone } from '../schedule/timeZone';
import { failuresByCountry } from '../rows/countryOfPrefix';
import { receiptPercentiles } from './receiptPercentiles';
import { timeBucket } from './timeBucket';
import { optOutWord } from '../storage/evidence';
import { SPEND_KEY } from '../storage/guardSql';
import { variantsStatus, type VariantsStatus } from '../campaign/variantStatus';
import { linkStoreOf } from '../storage/openStores';

/** A campaign's outcome, as `campaign report --json` prints it and the HTML shows it. */
export interface CampaignReport {
	campaign: string;
	/** A variant campaign's figures per text and its winner. */
	variants?: VariantsStatus;
	phase: CampaignPhase;
	generatedAt: string;
	/**
	 * Each stage a subset of the one before: rows, valid (neither invalid, a duplicate nor
	 * opted out: the dry run's "valid"), sent (accepted), then
	 * what receipts and replies said. `uncertain` beside `sent`: messages whose answer was
	 * lost, which may or may not have gone out.
	 */
	funnel: {
		rows: number;
		valid: number;
		sent: number;
		uncertain: number;
		delivered: number;
		failed: number;
		replied: number;
		optedOut: number;
	};
	statuses: StatusCounts;
	/** Every state a row is in that is not plain sent, with what it means for a person. */
	rowStates: { state: RowStatus; count: number; meaning: string }[];
	/** What was sent, from whom, when; times also in `timeZone` as a person there reads them. */
	details: {
		text: string;
		from: string;
		timeZone: string;
		start: string | null;
		end: string | null;
		startLocal: string | null;
		endLocal: string | null;
		generatedLocal: string;
	};
	/**
	 * Whether delivery receipts were asked for (a --receipt-url, the worker's campaigns) or
	 * came: without them the receipt figures would only say "awaiting".
	 */
	receipts: boolean;
	awaitingReceipt: number;
	failuresByErrorCode: { errorCode: string; count: number }[];
	failuresByCountry: { country: string; count: number }[];
	timeline: {
		bucketSeconds: number;
		sends: { at: string; count: number }[];
		deliveries: { at: string; delivered: number; failed: number }[];
	};
	/** Seconds from the answer that accepted a message to its receipt; null before any receipt. */
	receiptSeconds: { p50: number; p95: number; receipts: number } | null;
	/**
	 * Where the send times of the timeline and of receiptSeconds come from: the stored answer
	 * that accepted a message, or, for a message whose answer was lost (uncertain) until a
	 * receipt showed it was sent, the moment its request left.
	 */
	sendTimes: { fromAnswer: number; fromRequest: number; note: string };
	/** The price's unit (`--currency`, config `currency`): null shows the cost as a bare number. */
	segments: {
		sent: number;
		pricePerSegment: number | null;
		estimatedCost: number | null;
		currency: string | null;
	};
	/**
	 * The rows not sent (invalid, refused by the provider), by ErrorCode: how many, the first
	 * lines (`campaign status` lists every one) and the first one's reason.
	 */
	notSentByCode: NotSentCode[];
	/**
	 * The opt-outs replies to this campaign made: by word or phrase, and the seconds from the
	 * reply's arrival to its suppression being in force (null before any).
	 */
	optOuts: {
		count: number;
		words: { word: string; count: number }[];
		secondsToSuppression: { p50: number; max: number } | null;
	};
	/** The guardrail that paused the campaign, and what it saw; what its spend cap counted as paid. */
	guardrails: { pausedBy: string | null; reason: string | null; spent: number };
	/**
	 * With --track-links: recipients who clicked at least once (and their share of those
	 * sent), real clicks, prefetches kept apart, clicks over time (the timeline's buckets) and
	 * per link, most clicked first.
	 */
	links?: {
		clicked: number;
		clickRate: number | null;
		clicks: number;
		prefetches: number;
		timeline: { at: string; count: number }[];
		perLink: { url: string; clicked: number; clicks: number }[];
	};
}

export interface NotSentCode {
	status: 'invalid' | 'rejected';
	code: string;
	count: number;
	lines: number[];
	reason: string;
}

/** Example lines kept per ErrorCode. */
const EXAMPLE_LINES = 5;

/** Streams only the rows not sent, which a list that reads well has few of, into one entry per code. */
async function notSentByCode(ledger: LedgerReader, name: string): Promise<NotSentCode[]> {
	const byCode = new Map<string, NotSentCode>();
	for await (const r of ledger.rows(name, ['invalid', 'rejected'])) {
		const status = r.status as NotSentCode['status'];
		const code = r.errorCode ?? '';
		const key = `${status}\u0000${code}`;
		const entry = byCode.get(key);
		if (!entry)
			byCode.set(key, { status, code, count: 1, lines: [r.line], reason: r.message ?? '' });
		else {
			entry.count++;
			if (entry.lines.length < EXAMPLE_LINES) entry.lines.push(r.line);
		}
	}
	return [...byCode.values()].sort(
		(a, b) => b.count - a.count || a.code.localeCompare(b.code) || a.status.localeCompare(b.status),
	);
}

export const SEND_TIMES =
	"a message is sent when the provider's answer accepting it was stored; one whose answer was lost, accepted later by its receipt, when its request left";

/** The opt-outs of a campaign's replies, by word, and how soon each took effect. */
function optOutFigures(list: { replyAt: number; suppressedAt?: number; reason?: string }[]) {
	const words = new Map<string, number>();
	for (const o of list) {
		const word = o.reason === undefined ? '(rule)' : optOutWord(o.reason);
		words.set(word, (words.get(word) ?? 0) + 1);
	}
	const seconds = list
		.filter((o) => o.suppressedAt !== undefined)
		.map((o) => Math.max(0, o.suppressedAt! - o.replyAt) / 1000)
		.sort((a, b) => a - b);
	return {
		count: list.length,
		words: [...words]
			.map(([word, count]) => ({ word, count }))
			.sort((a, b) => b.count - a.count || a.word.localeCompare(b.word)),
		secondsToSuppression:
			seconds.length === 0
				? null
				: { p50: seconds[Math.floor((seconds.length - 1) / 2)], max: seconds[seconds.length - 1] },
	};
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** What each row state means, said once for the report's reader. */
export const STATE_MEANINGS: Partial<Record<RowStatus, string>> = {
	invalid: 'not sent: the row could not be read, or its number or text is not valid',
	duplicate: 'not sent: an earlier row of the list has the same number',
	suppressed: 'not sent: the number opted out (on the suppression list)',
	capped: 'not sent: the number had had its --frequency-cap of messages (FREQUENCY_CAPPED)',
	cancelled: 'not sent: the campaign was cancelled before their turn',
	rejected: 'refused by the provider (its ErrorCode says why)',
	uncertain:
		"may have been sent: the provider's answer was lost; sent again only with --resend-uncertain",
	pending: 'not sent yet',
	held: 'the rest of a variant test: sent with the winning text once it is chosen',
	submitting: 'on their way to the provider',
};

/**
 * Every empty bucket between the first and the last, as zero: a line drawn straight across a
 * quiet minute would say something was sent in it.
 */
function filled<T extends { at: number }>(
	buckets: T[],
	width: number,
	zero: (at: number) => T,
): T[] {
	if (buckets.length === 0) return [];
	const byAt = new Map(buckets.map((b) => [b.at, b]));
	const out: T[] = [];
	for (let at = buckets[0].at; at <= buckets[buckets.length - 1].at; at += width)
		out.push(byAt.get(at) ?? zero(at));
	return out;
}

/**
 * Reads counts and buckets, and of the rows only those not sent: as fast on a million-row
 * campaign as the database's GROUP BYs.
 */
export async function readCampaignReport(
	ledger: LedgerReader,
	name: string,
	options: { pricePerSegment?: number; currency?: string } = {},
): Promise<CampaignReport> {
	const record = await ledger.campaign(name);
	if (!record) throw new Error(`no campaign named ${name}`);
	const counts = await ledger.counts(name);
	const delivery = await ledger.deliveryCounts(name, counts.rows.accepted);
	const span = await ledger.activitySpan(name);
	const bucketSeconds = timeBucket(span ? span.to - span.from : 0);
	const figures = await ledger.reportFigures(name, bucketSeconds);
	const price = options.pricePerSegment;
	const zone =
		(record.spec.timeZone && resolveTimeZone(record.spec.timeZone)) ||
		Intl.DateTimeFormat().resolvedOptions().timeZone ||
		'UTC';
	const now = Date.now();
	const guardrails = {
		pausedBy: record.pausedBy?.by ?? null,
		reason: record.pausedBy?.detail ?? null,
		spent: (await ledger.spent(SPEND_KEY + name)) / 1e6,
	};
	const variants = await variantsStatus(ledger, record.spec);
	const links = record.spec.linkBase === undefined ? undefined : linkStoreOf(ledger);
	const linkCounts = links ? await links.counts(name) : undefined;
	return {
		guardrails,
		campaign: name,
		...(variants ? { variants } : {}),
		phase: record.phase,
		generatedAt: new Date(now).toISOString(),
		details: {
			text: record.spec.text,
			from: record.spec.from || 'a leased number',
			timeZone: zone,
			start: span ? iso(span.from) : null,
			end: span ? iso(span.to) : null,
			startLocal: span ? localTime(span.from, zone) : null,
			endLocal: span ? localTime(span.to, zone) : null,
			generatedLocal: localTime(Math.floor(now / 1000), zone),
		},
		receipts: record.spec.receipts === true || delivery.delivered + delivery.failed > 0,
		rowStates: (Object.keys(STATE_MEANINGS) as RowStatus[])
			.filter((s) => counts.rows[s] > 0)
			.map((state) => ({
				state,
				count: counts.rows[state],
				meaning:
					state === 'invalid'
						? `${STATE_MEANINGS.invalid!} (\`cloudtel campaign status --name ${name}\` lists them with their lines and reasons)`
						: STATE_MEANINGS[state]!,
			})),
		funnel: {
			rows: counts.total,
			valid: counts.total - counts.rows.invalid - counts.rows.duplicate - counts.rows.suppressed,
			sent: counts.rows.accepted,
			uncertain: counts.rows.uncertain,
			delivered: delivery.delivered,
			failed: delivery.failed,
			replied: delivery.replied,
			optedOut: delivery.optedOut,
		},
		statuses: counts.rows,
		awaitingReceipt: delivery.awaitingReceipt,
		failuresByErrorCode: Object.entries(delivery.failedByCode)
			.map(([errorCode, count]) => ({ errorCode, count }))
			.sort((x, y) => y.count - x.count || x.errorCode.localeCompare(y.errorCode)),
		failuresByCountry: failuresByCountry(figures.failuresByPrefix),
		timeline: {
			bucketSeconds,
			sends: filled(figures.sends, bucketSeconds, (at) => ({ at, count: 0 })).map((b) => ({
				at: iso(b.at),
				count: b.count,
			})),
			deliveries: filled(figures.deliveries, bucketSeconds, (at) => ({
				at,
				delivered: 0,
				failed: 0,
			})).map((b) => ({ at: iso(b.at), delivered: b.delivered, failed: b.failed })),
		},
		receiptSeconds: receiptPercentiles(figures.receiptTenths) ?? null,
		sendTimes: {
			fromAnswer: counts.rows.accepted - figures.sentByReceipt,
			fromRequest: figures.sentByReceipt,
			note: SEND_TIMES,
		},
		optOuts: optOutFigures(await ledger.campaignOptOuts(name)),
		// Not a scan of every row for none.
		notSentByCode:
			counts.rows.invalid + counts.rows.rejected > 0 ? await notSentByCode(ledger, name) : [],
		segments: {
			sent: counts.acceptedSegments,
			pricePerSegment: price ?? null,
			currency: options.currency ?? null,
			// Rounded to a millionth: prices per segment are often fractions of a cent.
			estimatedCost:
				price === undefined ? null : Math.round(counts.acceptedSegments * price * 1e6) / 1e6,
		},
		...(links && linkCounts
			? {
					links: {
						...linkCounts,
						clickRate:
							counts.rows.accepted > 0
								? Math.round((linkCounts.clicked / counts.rows.accepted) * 10_000) / 10_000
								: null,
						// Clicks come long after the sends: their own buckets, of the timeline's width.
						timeline: (await links.clickBuckets(name, bucketSeconds)).map((b) => ({
							at: iso(b.at),
							count: b.count,
						})),
						perLink: await links.perLink(name),
					},
				}
			: {}),
	};
}

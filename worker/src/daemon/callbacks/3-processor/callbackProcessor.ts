import { PERMANENT_FAILURE_REASON } from '../../../settings/failureCodes';
import type { DeliveryReceiptCallback, ReplyCallback } from '../../../../../api';
import type { N8nForwardConfig, OptOutConfig, ReplyRule } from '../../../config/workerConfigSchema';
import type { CallbackLedger, LedgerReader } from '../../../storage/ledger';
import type {
	CompletedEvent,
	EventStore,
	LinkClickEvent,
	NewForward,
	StoredEvent,
} from '../../../storage/daemonStore';
import type { LinkStore, RecordedClick } from '../../../storage/linkStore';
import type { ForwardOutbox } from '../6-forward/forwardOutbox';
import type { ForwardAction, QueuedForward, ReplyContext } from '../6-forward/forwardPayload';
import type { Logger } from '../../jsonLogger';
import type { CampaignEvents } from '../5-events/campaignEvents';
import { matchRules } from '../4-replies/matchRules';
import { optOutMatcher, type OptOutIntent } from '../../../config/optOutKeywords';
import { replyContext } from '../4-replies/replyContext';
import { readExternalId } from '../4-replies/runName';
import { rowName } from '../4-replies/rowName';
import type { CsvSource } from '../../../csv/openCsv';
import { BackgroundLoop } from '../../../pacing/backgroundLoop';
import { reasonableMeansPhrase } from '../../../config/reasonableMeans';

type Forward = NewForward & { payload: QueuedForward };

const BATCH = 100;
/** A repeated opt-out within this is not confirmed again. */
const CONFIRMATION_QUIET_MS = 30 * 24 * 3600 * 1000;
/** Receipts are summed up at info once a minute; each is at debug. */
const RECEIPT_SUMMARY_MS = 60_000;
/** A failure here is the database's (down, busy, full): worth another look soon, not a tight loop. */
const RETRY_MS = 250;
const RETRY_MAX_MS = 5000;
/** Another worker sharing the store is processing: look again soon, for the events this one stored meanwhile. */
const BUSY_MS = 250;

/** An action as a forward keeps it: a post's headers and signing secret stay in the config (see postHeaders). */
function queued(action: ForwardAction): ForwardAction {
	if (action.type !== 'post' || (action.headers === undefined && action.signing === undefined))
		return action;
	const { headers: _headers, signing: _signing, ...rest } = action;
	return rest;
}

/**
 * Turns stored callback events into their effects: a receipt into the ledger row's
 * delivery status, a reply into opt-outs and queued forwards. Events are read back from
 * the store, not handed over in memory, so those a crash interrupted are done at the next
 * start; every effect is idempotent, and an event's forwards are queued in the same
 * transaction that marks it done. Where workers share the store, one of them at a time
 * processes (the others look again shortly): each event once, in the order it came.
 */
export class CallbackProcessor {
	private readonly loop = new BackgroundLoop({
		run: async () => {
			const done = await this.store.processingAlone(() => this.processAll());
			if (done !== 'busy') this.passes++;
			return done === 'busy' ? { waitMs: BUSY_MS } : undefined;
		},
		backoff: { baseMs: RETRY_MS, maxMs: RETRY_MAX_MS },
		failed: (error, failures, delayMs) => {
			if (failures === 0)
				this.log.error(
					'callback processing failed; the event stays stored and is tried again shortly',
					{ error, delayMs },
				);
		},
		recovered: (failures) =>
			this.log.info('callback processing goes on: the store answers again', { failures }),
	});
	/** Passes that ended with no stored event left unprocessed. */
	passes = 0;
	private readonly optOutIntent: (text: string) => OptOutIntent | undefined;
	/** Receipts since the last summary, by campaign: one info line a minute, not one a receipt. */
	private receiptCounts = new Map<string, { delivered: number; failed: number }>();
	private summaryTimer: NodeJS.Timeout | undefined;
	/** An API campaign's rows, which are no file: looked up where the campaign API is open. */
	private rowsOf: (run: string) => Promise<(() => Promise<CsvSource>) | undefined> = () =>
		Promise.resolve(undefined);

	constructor(
		private readonly store: EventStore,
		private readonly ledger: CallbackLedger & Pick<LedgerReader, 'campaign'>,
		private readonly rules: readonly ReplyRule[],
		private readonly outbox: ForwardOutbox,
		private readonly log: Logger,
		private readonly keywords: OptOutConfig = {
			keywords: [],
			optInKeywords: [],
			reasonableMeans: 'suppress',
		},
		/** `forward.n8n`: which callbacks also go to n8n, each once. */
		private readonly n8n?: Pick<N8nForwardConfig, 'events'>,
		/** Events out: reply and optout, queued with the callback's other forwards. */
		private readonly events?: CampaignEvents,
		/** Clicks on tracked links: stored against their row; a scanner's soon after delivery is a prefetch. */
		private readonly links?: {
			store: LinkStore;
			scanWindowMs: number;
			/** The first real click of a recipient on a link, for events out. */
			clicked?: (click: RecordedClick, token: string, at: number) => Promise<Forward[]>;
		},
		/** `suppressPermanentFailures`: receipt ErrorCodes that say the number does not exist. */
		private readonly permanentFailures: readonly string[] = [],
	) {
		this.optOutIntent = optOutMatcher({ optOut: keywords.keywords, optIn: keywords.optInKeywords });
	}

	/**
	 * Processing begins: kicks before this are not acted on. A reload's new copy takes
	 * callbacks (WorkerDaemon's standby) while the copy it replaces still processes them,
	 * and two processors would race over one phone's STOP and START.
	 */
	/** Where a reply e-mail finds the name of an API campaign's recipient (its pages). */
	lookUpRows(rowsOf: (run: string) => Promise<(() => Promise<CsvSource>) | undefined>): void {
		this.rowsOf = rowsOf;
	}

	start(): void {
		this.loop.start();
		this.loop.kick();
	}

	/**
	 * `storeAnswers`: the caller has just seen the store take writes again (the intake fed it
	 * its spool), so a back-off still running would only delay the backlog.
	 */
	kick(storeAnswers = false): void {
		this.loop.kick(storeAnswers);
	}

	/** Waits until every stored event has been processed, or processing failed. */
	idle(): Promise<void> {
		return this.loop.idle();
	}

	private async processAll(): Promise<void> {
		for (;;) {
			this.loop.takeKick();
			const events = await this.store.unprocessedEvents(BATCH);
			// In order, one after the other: a STOP and a START from one phone, or a receipt
			// following another for one message, must take effect as they came. The batch is
			// then marked done in one transaction, its forwards queued with it.
			const done: CompletedEvent[] = [];
			for (const e of events) done.push({ key: e.key, forwards: await this.process(e) });
			await this.store.completeEvents(done, Date.now());
			if (done.some((d) => d.forwards.length > 0)) this.outbox.kick();
			if (events.length < BATCH && !this.loop.takeKick()) return;
		}
	}

	private async process(stored: StoredEvent): Promise<Forward[]> {
		if (stored.event.kind === 'click') return this.click(stored.key, stored.event.data);
		const forwards =
			stored.event.kind === 'receipt'
				? (await this.receipt(stored.event.data, stored.receivedAt), [])
				: await this.reply(stored.event.data, stored.receivedAt);
		// Queued in the transaction that marks the event done, as a reply rule's forwards are.
		if (this.n8n?.events.includes(stored.event.kind))
			forwards.push({
				actionKey: 'n8n',
				payload: { action: { type: 'n8n' }, event: stored.event, receivedAt: stored.receivedAt },
			});
		return forwards;
	}

	private async click(key: string, click: LinkClickEvent['data']): Promise<Forward[]> {
		if (!this.links) return [];
		const stored = await this.links.store.recordClick(
			{ key, token: click.Token, at: click.At, prefetch: click.Prefetch },
			this.links.scanWindowMs,
		);
		// Forgotten or pruned between the redirect and now: nothing of it is kept.
		if (!stored) return [];
		this.log.debug('link clicked', {
			campaign: stored.campaign,
			row: stored.line,
			prefetch: stored.prefetch,
			first: stored.first,
		});
		return stored.first && this.links.clicked
			? this.links.clicked(stored, click.Token, click.At)
			: [];
	}

	private async receipt(receipt: DeliveryReceiptCallback, receivedAt: number): Promise<void> {
		const origin = readExternalId(receipt.ExternalId);
		const row = await this.ledger.recordDelivery({
			messageSid: receipt.MessageSid,
			campaign: origin?.run,
			line: origin?.row,
			status: receipt.Status,
			errorCode: receipt.ErrorCode,
			at: receipt.Timestamp > 0 ? receipt.Timestamp : Math.floor(receivedAt / 1000),
			receivedAt,
		});
		if (row) {
			this.log.debug('delivery receipt', {
				campaign: row.campaign,
				row: row.line,
				messageSid: receipt.MessageSid,
				status: receipt.Status,
				errorCode: receipt.ErrorCode || undefined,
			});
			this.countReceipt(row.campaign, receipt.Status === 'Delivered');
			await this.judgeNumber(receipt);
			if (row.resolved)
				this.log.info('uncertain row resolved by its receipt: it was sent', {
					campaign: row.campaign,
					row: row.line,
					messageSid: receipt.MessageSid,
				});
		} else
			this.log.warn('delivery receipt for no campaign row', {
				messageSid: receipt.MessageSid,
				externalId: receipt.ExternalId,
				status: receipt.Status,
			});
	}

	/**
	 * A number that does not exist is suppressed, so later campaigns skip it; a later delivery
	 * to it lifts that (a number can be given out again), never an opt-out.
	 */
	private async judgeNumber(receipt: DeliveryReceiptCallback): Promise<void> {
		if (this.permanentFailures.length === 0) return;
		const permanent =
			receipt.Status === 'Failed' && this.permanentFailures.includes(receipt.ErrorCode);
		if (!permanent && receipt.Status !== 'Delivered') return;
		const number = await this.ledger.sentTo(receipt.MessageSid);
		if (!number) return;
		if (permanent) {
			await this.ledger.suppressPermanentFailure(
				number,
				`${PERMANENT_FAILURE_REASON}${receipt.ErrorCode}`,
			);
			this.log.info('number suppressed: its receipt says it does not exist', {
				messageSid: receipt.MessageSid,
				errorCode: receipt.ErrorCode,
			});
		} else if (await this.ledger.liftPermanentFailure(number, PERMANENT_FAILURE_REASON))
			this.log.info('suppression lifted: a delivery to the number succeeded', {
				messageSid: receipt.MessageSid,
			});
	}

	private countReceipt(campaign: string, delivered: boolean): void {
		const counts = this.receiptCounts.get(campaign) ?? { delivered: 0, failed: 0 };
		counts[delivered ? 'delivered' : 'failed']++;
		this.receiptCounts.set(campaign, counts);
		if (this.summaryTimer) return;
		this.summaryTimer = setTimeout(() => {
			this.summaryTimer = undefined;
			const campaigns = Object.fromEntries(this.receiptCounts);
			this.receiptCounts = new Map();
			const total = (k: 'delivered' | 'failed') =>
				Object.values(campaigns).reduce((n, c) => n + c[k], 0);
			this.log.info('delivery receipts', {
				delivered: total('delivered'),
				failed: total('failed'),
				campaigns,
				seconds: RECEIPT_SUMMARY_MS / 1000,
			});
		}, RECEIPT_SUMMARY_MS);
		this.summaryTimer.unref();
	}

	/** Whether the reply answers a message this ledger sent to its sender. */
	private async answersOurs(reply: ReplyCallback): Promise<boolean> {
		return (
			reply.OriginalMessageSid !== '' &&
			(await this.ledger.sentTo(reply.OriginalMessageSid)) === reply.From
		);
	}

	/**
	 * The confirmation an opt-out may have (optOut.confirmation): one SMS from the number the
	 * opt-out answered, none when one went within 30 days (a STOP sent twice). Recorded
	 * before it is queued: a crash between leaves it unsent rather than sent twice.
	 */
	private async confirmation(
		reply: ReplyCallback,
		context: ReplyContext,
		text: string,
	): Promise<Forward[]> {
		const last = await this.ledger.lastConsent(reply.From, 'confirmation');
		if (last !== undefined && context.receivedAt - last < CONFIRMATION_QUIET_MS) {
			this.log.info('opt-out not confirmed again: one went within 30 days', { from: reply.From });
			return [];
		}
		await this.ledger.recordConsent(reply.From, 'confirmation', `sent from ${reply.To}: ${text}`);
		return [
			{
				actionKey: 'confirmation',
				payload: {
					action: {
						type: 'forwardSms',
						to: reply.From,
						from: reply.To,
						property: reply.PropertySid,
					},
					context,
					text,
				},
			},
		];
	}

	/**
	 * What an e-mail tells a person the other forwards need not: whose reply it is (the
	 * row's name) and that it opted them out. Only its copy of the context gets them.
	 */
	private async forEmail(
		forwards: Forward[],
		context: ReplyContext,
		optedOut: ReplyContext['optedOut'],
	): Promise<void> {
		const emails = forwards.filter((f) => f.payload.action.type === 'forwardEmail');
		if (emails.length === 0) return;
		const spec =
			context.run !== undefined && context.row !== undefined
				? (await this.ledger.campaign(context.run))?.spec
				: undefined;
		const rows = spec ? await this.rowsOf(context.run!).catch(() => undefined) : undefined;
		const name = spec ? await rowName(spec, context.row!, context.reply.From, rows) : undefined;
		const own = { ...context, ...(name ? { name } : {}), ...(optedOut ? { optedOut } : {}) };
		for (const f of emails) (f.payload as { context: ReplyContext }).context = own;
	}

	private async reply(reply: ReplyCallback, receivedAt: number): Promise<Forward[]> {
		const context = replyContext(reply, receivedAt);
		const listed = this.optOutIntent(reply.Text);
		const phrase = listed ? undefined : reasonableMeansPhrase(reply.Text);
		const found: OptOutIntent | undefined =
			listed ??
			(phrase !== undefined && this.keywords.reasonableMeans === 'suppress'
				? { intent: 'optOut', keyword: phrase.toUpperCase() }
				: undefined);
		const intent = found?.intent;
		if (phrase !== undefined && !found) {
			// Held for a person: `cloudtel optouts review` accepts or rejects it.
			await this.ledger.recordConsent(reply.From, 'review', `replied "${phrase}"`);
			this.log.info('opt-out held for review', {
				from: reply.From,
				campaign: context.campaign,
				phrase,
			});
		}
		if (found?.intent === 'optOut') {
			// Always honoured, erring toward not texting; one answering no message of ours is said so.
			await this.ledger.addSuppression(
				reply.From,
				phrase !== undefined ? `replied "${phrase}"` : `replied ${found.keyword}`,
			);
			if (await this.answersOurs(reply))
				this.log.info('opted out', {
					from: reply.From,
					campaign: context.campaign,
					keyword: found.keyword,
				});
			else
				this.log.warn('opted out', {
					from: reply.From,
					keyword: found.keyword,
					originalMessageSid: reply.OriginalMessageSid,
					originalUnknown: 'the message replied to is not one this ledger sent to the number',
				});
		} else if (found?.intent === 'optIn') {
			// Only a reply to a message we sent to that very number puts it back: the callback
			// URL's secret is in every message, and whoever holds it could opt anyone in.
			if (await this.answersOurs(reply)) {
				const removed = await this.ledger.removeSuppression(
					reply.From,
					`replied ${found.keyword}: ${JSON.stringify(reply.Text)}`,
				);
				this.log.info('opted in', {
					from: reply.From,
					campaign: context.campaign,
					keyword: found.keyword,
					wasSuppressed: removed,
				});
			} else {
				this.log.warn(
					'opt-in not acted on: the message replied to is not one this ledger sent to the number',
					{
						from: reply.From,
						originalMessageSid: reply.OriginalMessageSid,
						keyword: found.keyword,
					},
				);
			}
		}
		const matched = matchRules(this.rules, context);
		const forwards: Forward[] = [];
		let optedOut = intent === 'optOut';
		let optOutRule: string | undefined;
		for (const m of matched) {
			if (m.action.type === 'optOut') {
				if (intent !== 'optIn') {
					await this.ledger.addSuppression(
						reply.From,
						`reply rule ${this.rules[m.rule].name ?? m.rule}`,
					);
					optedOut = true;
					optOutRule ??= String(this.rules[m.rule].name ?? m.rule);
				}
				this.log.info('opted out by rule', {
					from: reply.From,
					rule: this.rules[m.rule].name ?? m.rule,
				});
			} else
				forwards.push({
					actionKey: m.key,
					payload: { action: queued(m.action as ForwardAction), context },
				});
		}
		await this.forEmail(
			forwards,
			context,
			optedOut
				? { keyword: found?.intent === 'optOut' ? found.keyword : undefined, rule: optOutRule }
				: undefined,
		);
		if (optedOut && this.keywords.confirmation !== undefined)
			forwards.push(...(await this.confirmation(reply, context, this.keywords.confirmation)));
		// The run is the ledger's campaign: its row counts the reply in the report.
		if (context.run !== undefined && context.row !== undefined) {
			await this.ledger.recordReply({
				campaign: context.run,
				line: context.row,
				messageSid: reply.MessageSid,
				at: receivedAt,
				optOut: optedOut,
			});
		}
		if (this.events) {
			// A rule's opt-out has no keyword of ours: the reply's first word stands for it.
			const keyword =
				found?.intent === 'optOut'
					? found.keyword
					: (reply.Text.trim().split(/\s+/)[0] ?? '').toUpperCase();
			forwards.push(
				...(await this.events.replyForwards(
					context,
					optedOut
						? { keyword, ...(found?.intent === 'optOut' ? {} : { rule: optOutRule }) }
						: undefined,
					phrase !== undefined && !found ? phrase : undefined,
				)),
			);
		}
		this.log.info('reply', {
			messageSid: reply.MessageSid,
			from: reply.From,
			campaign: context.campaign,
			row: context.row,
			rules: [...new Set(matched.map((m) => m.rule))],
			forwards: forwards.length,
		});
		return forwards;
	}
}

import type { PausedBy } from '../../../storage/ledger';
import type {
	CampaignCounts,
	CampaignEvent,
	ClickEventData,
	OptOutEventData,
	OptOutReviewEventData,
	ReplyEventData,
} from '../../../../../api';
import type { CampaignConfig, EventsConfig } from '../../../config/workerConfigSchema';
import type { DaemonStore, KeyedForward, NewForward } from '../../../storage/daemonStore';
import type { EventForward } from '../6-forward/eventForward';
import type { ReplyContext } from '../6-forward/forwardPayload';
import type { RecordedClick } from '../../../storage/linkStore';
import { readExternalId } from '../4-replies/runName';

/**
 * A run as its events name it: a config campaign's cron run (`<campaign>-<tick>`), or a
 * campaign of the campaign API, whose run is the campaign itself.
 */
export interface EventRun {
	campaign: string;
	run: string;
	/** The campaign's own events URL when the config does not hold it (the campaign API's settings). */
	url?: string;
}

/** How a campaign.finished ends: as the campaign API's final states. */
export type FinishedState = 'finished' | 'cancelled' | 'failed';

/** What decides where an event goes: the config's `events` and its campaigns' own URLs. */
export interface EventsSettings {
	events?: EventsConfig;
	campaigns: readonly Pick<CampaignConfig, 'name' | 'events'>[];
}

/** The action key of an event's forward: one per event (and per callback, for reply and optout). */
const ACTION = 'event';

/**
 * The events out (campaign.started, .finished, .paused, reply, optout), each queued in the
 * forward outbox under a stable id: `campaign.finished:<run>`, `reply:<MessageSid>`. The
 * id is the forward's key, so queuing an event twice queues it once, and its
 * Idempotency-Key on every attempt. A campaign's own URL takes all of its campaign's
 * events; otherwise the config's `events.url` takes those its `types` name.
 *
 * The `...Forwards` builders give the forwards to queue in the transaction of the change
 * they announce (a run closed and its finished event together).
 */
export class CampaignEvents {
	constructor(
		private readonly settings: EventsSettings,
		private readonly store?: Pick<DaemonStore, 'queueForwards'>,
		/** Called once forwards are queued: the outbox looks for them. */
		private readonly queued: () => void = () => {},
	) {}

	/** A campaign's own URL the config does not hold (the campaign API's), for its replies and opt-outs. */
	private campaignUrl: ((campaign: string) => Promise<string | undefined>) | undefined;

	/** Where campaigns outside the config keep their own events URL (the campaign API's settings). */
	lookUpCampaignUrls(lookUp: (campaign: string) => Promise<string | undefined>): void {
		this.campaignUrl = lookUp;
	}

	/** A campaign API campaign's own signing secret (its settings), read when each event is sent. */
	private campaignSecret: ((campaign: string) => Promise<string | undefined>) | undefined;

	lookUpCampaignSecrets(lookUp: (campaign: string) => Promise<string | undefined>): void {
		this.campaignSecret = lookUp;
	}

	/** The signing secret of a campaign outside the config (the campaign API's), if it has one. */
	async signingSecretOf(campaign: string): Promise<string | undefined> {
		return this.campaignSecret?.(campaign);
	}

	/** Whether any event can go anywhere: without, nothing is queued. */
	get enabled(): boolean {
		return (
			this.settings.events?.url !== undefined ||
			this.settings.campaigns.some((c) => c.events !== undefined) ||
			this.campaignUrl !== undefined
		);
	}

	startedForwards(run: EventRun, at: number): KeyedForward[] {
		return this.keyed(
			this.event('campaign.started', `campaign.started:${run.run}`, run, at, this.runData(run)),
			run.url,
		);
	}

	finishedForwards(
		run: EventRun,
		state: FinishedState,
		counts: CampaignCounts,
		at: number,
		reason?: string,
	): KeyedForward[] {
		const data = {
			state,
			counts,
			...this.runData(run),
			...(reason !== undefined ? { reason } : {}),
		};
		return this.keyed(
			this.event('campaign.finished', `campaign.finished:${run.run}`, run, at, data),
			run.url,
		);
	}

	/**
	 * `pause`: which pause of the run it is (a campaign paused, resumed and paused again
	 * announces each), stable for the same pause: a count, or the time it was paused (a cron
	 * run taken up paused after a restart names its pause as before, and announces it once).
	 */
	pausedForwards(
		run: EventRun,
		at: number,
		counts?: CampaignCounts,
		pause?: string | number,
		/** The guardrail that paused it (spend-cap, ...), and what it saw: the event's `pausedBy` and `reason`. */
		by?: PausedBy,
	): KeyedForward[] {
		const id = `campaign.paused:${run.run}${pause === undefined ? '' : `:${pause}`}`;
		return this.keyed(
			this.event('campaign.paused', id, run, at, {
				...this.runData(run),
				...(counts ? { counts } : {}),
				...(by ? { pausedBy: by.by, reason: by.detail } : {}),
			}),
			run.url,
		);
	}

	/** A variant campaign's decision: once per run, as the decision is made once. */
	variantDecidedForwards(run: EventRun, at: number, data: object): KeyedForward[] {
		return this.keyed(
			this.event('campaign.variant_decided', `campaign.variant_decided:${run.run}`, run, at, {
				...data,
				...this.runData(run),
			}),
			run.url,
		);
	}

	/**
	 * A reply's events, queued with the callback's other forwards (in the transaction that
	 * marks it processed): `reply`, and `optout` when it opted its sender out.
	 */
	async replyForwards(
		context: ReplyContext,
		optOut?: { keyword: string; rule?: string },
		/** The phrase of a reply held for review (optout.review). */
		review?: string,
	): Promise<(NewForward & { payload: EventForward })[]> {
		if (!this.enabled) return [];
		const { reply } = context;
		const url =
			context.campaign === undefined || !this.campaignUrl
				? undefined
				: await this.campaignUrl(context.campaign);
		const at = context.receivedAt;
		const run =
			context.campaign === undefined
				? undefined
				: { campaign: context.campaign, run: context.run ?? context.campaign };
		const replyData: ReplyEventData = {
			from: reply.From,
			to: reply.To,
			text: reply.Text,
			messageSid: reply.MessageSid,
			...(context.campaign !== undefined ? { campaign: context.campaign } : {}),
		};
		const events = [this.event('reply', `reply:${reply.MessageSid}`, run, at, replyData)];
		if (optOut) {
			const data: OptOutEventData & { rule?: string } = {
				number: reply.From,
				keyword: optOut.keyword,
				...(optOut.rule !== undefined ? { rule: optOut.rule } : {}),
			};
			events.push(this.event('optout', `optout:${reply.MessageSid}`, run, at, data));
		}
		if (review !== undefined) {
			const data: OptOutReviewEventData = {
				number: reply.From,
				phrase: review,
				text: reply.Text,
				messageSid: reply.MessageSid,
			};
			events.push(this.event('optout.review', `optout.review:${reply.MessageSid}`, run, at, data));
		}
		return events.flatMap((e) => {
			const action = this.route(e, url);
			if (!action) return [];
			const payload: EventForward = { action, event: e };
			return [{ actionKey: `${ACTION}.${e.type}`, payload }];
		});
	}

	/**
	 * `click`: a recipient's first real click on a link, queued with the click's processing;
	 * its id is the link's token, so it goes once per recipient and link.
	 */
	async clickForwards(
		click: RecordedClick,
		token: string,
		at: number,
	): Promise<(NewForward & { payload: EventForward })[]> {
		if (!this.enabled) return [];
		const origin = readExternalId(`${click.campaign}:${click.line}`);
		const run = { campaign: origin?.campaign ?? click.campaign, run: click.campaign };
		const url = this.campaignUrl ? await this.campaignUrl(run.campaign) : undefined;
		const data: ClickEventData = {
			number: click.to ?? '',
			url: click.url,
			row: click.line,
			...this.runData(run),
		};
		const event = this.event('click', `click:${token}`, run, at, data);
		const action = this.route(event, url);
		return action ? [{ actionKey: `${ACTION}.click`, payload: { action, event } }] : [];
	}

	/** Tells the outbox that forwards were queued (by a caller's own transaction too). */
	wake(): void {
		this.queued();
	}

	/** Queues forwards built here, idempotently by their keys, and wakes the outbox. */
	async queue(forwards: KeyedForward[], at = Date.now()): Promise<void> {
		if (forwards.length === 0 || !this.store) return;
		await this.store.queueForwards(forwards, at);
		this.queued();
	}

	private keyed(event: CampaignEvent, url: string | undefined): KeyedForward[] {
		const action = this.route(event, url);
		if (!action) return [];
		const payload: EventForward = { action, event };
		return [{ eventKey: event.id, actionKey: ACTION, payload }];
	}

	/** The campaign's own URL wins for its events; else the worker-wide URL, for the types it takes. */
	private route(event: CampaignEvent, url: string | undefined): EventForward['action'] | undefined {
		if (url !== undefined) return { type: 'event', to: 'campaign', url };
		if (
			event.campaign !== undefined &&
			this.settings.campaigns.some((c) => c.name === event.campaign && c.events !== undefined)
		)
			return { type: 'event', to: 'campaign' };
		if (this.settings.events?.url !== undefined && this.settings.events.types.includes(event.type))
			return { type: 'event', to: 'worker' };
		return undefined;
	}

	private event(
		type: CampaignEvent['type'],
		id: string,
		run: EventRun | undefined,
		at: number,
		data: object,
	): CampaignEvent {
		return {
			id,
			type,
			occurredAt: new Date(at).toISOString(),
			...(run ? { campaign: run.campaign } : {}),
			data: data as Record<string, unknown>,
		};
	}

	/** A cron run's name, which the campaign's name alone does not give. */
	private runData(run: EventRun): { run?: string } {
		return run.run === run.campaign ? {} : { run: run.run };
	}
}

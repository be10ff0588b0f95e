import type { Socket } from 'node:net';
import type { WorkerConfig } from '../config/workerConfigSchema';
import type { Ledger } from '../storage/ledger';
import { dbLocation } from '../storage/dbLocation';
import { linkStoreOf, openCluster, openDaemonStore, openLedger } from '../storage/openStores';
import { linkBasePath } from '../settings/linkBase';
import { WORKER_ID } from '../storage/workerId';
import { hostname } from 'node:os';
import { BatchClient } from '../provider/batchClient';
import { CallbackProcessor } from './callbacks/3-processor/callbackProcessor';
import { CampaignRunner } from './campaigns/campaignRunner';
import { ConfigCampaignRuns } from './campaigns/configCampaignRuns';
import { CampaignScheduler } from './campaigns/campaignScheduler';
import type { DaemonStore } from '../storage/daemonStore';
import { EmailForwarder } from './callbacks/6-forward/emailForwarder';
import { ForwardOutbox } from './callbacks/6-forward/forwardOutbox';
import { N8nForwarder } from './callbacks/6-forward/n8nForwarder';
import { EventForwarder } from './callbacks/6-forward/eventForwarder';
import { CampaignEvents } from './callbacks/5-events/campaignEvents';
import { postSigning } from './callbacks/6-forward/postSigning';
import { durationMs } from '../../../api';
import { failingDestinations } from './callbacks/6-forward/failingDestinations';
import { CampaignApi } from './api/campaignApi';
import { PostForwarder } from './callbacks/6-forward/postForwarder';
import { postHeaders } from './callbacks/6-forward/postHeaders';
import { SmsForwarder } from './callbacks/6-forward/smsForwarder';
import { WebhookServer } from './http/webhookServer';
import { Dashboard } from './dashboard/dashboard';
import type { JsonLogger } from './jsonLogger';
import type { PgCluster } from '../storage/postgres/pgCluster';
import { LEASE_BEAT_MS, LEASE_STALE_MS, WorkerLease } from './workerLease';
import { Retention } from './retention';
import { HealthCheck } from './http/healthCheck';
import { CallbackIntake } from './callbacks/2-spool/callbackIntake';
import { spoolDir } from './callbacks/2-spool/spoolDir';
import type { TestCommand } from './testControl';
import { daemonClock } from './daemonClock';

/** How often a worker stamps that its callbacks are in (see CallbacksGate's FRESH_MS). */
const CALLBACKS_STAMP_MS = 1_000;

/**
 * `cloudtel worker`: the webhook server, the callback processor, the outbox of forwards
 * and the campaign cron, over one SQLite file, or one Postgres that several workers
 * share (each then holds a lease; see WorkerLease). Whatever a stop or a crash
 * interrupts is in the database and taken up by the next start, or by the other workers.
 */
/** What a started worker is made of (WorkerDaemon.open). */
interface DaemonParts {
	port: number;
	store: DaemonStore;
	ledger: Ledger;
	server: WebhookServer;
	processor: CallbackProcessor;
	outbox: ForwardOutbox;
	scheduler: CampaignScheduler;
	log: JsonLogger;
	cluster: PgCluster | undefined;
	retention: Retention;
	intake: CallbackIntake;
	config: WorkerConfig;
	shownDb: string;
	/** Events out: what the campaign API's runs call (started, finished, paused). */
	events: CampaignEvents;
	/** The campaign API: its runner, and its routes under /api when the config sets server.apiToken. */
	api: CampaignApi;
}

export class WorkerDaemon {
	private stopping: Promise<void> | undefined;

	private constructor(private readonly parts: DaemonParts) {}

	private lease: WorkerLease | undefined;

	/** A connection the supervisor accepted and handed over. */
	serve(socket: Socket): void {
		this.parts.server.serve(socket);
	}

	private standbyBeat: NodeJS.Timeout | undefined;
	private callbacksStamp: NodeJS.Timeout | undefined;
	private begun = false;

	/**
	 * Opens the stores and starts taking callbacks. `standby` (a reload's new copy, see
	 * WorkerSupervisor): only that, until `begin()`, while the copy it replaces finishes
	 * what it took; forwards cut off mid-attempt are then not mistaken for a crash's.
	 * `handedPort`: the supervisor listens on it and hands over connections (serve); else
	 * the worker listens itself.
	 */
	static async start(
		config: WorkerConfig,
		log: JsonLogger,
		options: { standby?: boolean; handedPort?: number } = {},
	): Promise<WorkerDaemon> {
		// What is open so far, closed again should a later part fail to start.
		const opened: (() => unknown)[] = [];
		let parts: DaemonParts;
		try {
			parts = await WorkerDaemon.open(config, log, options.handedPort, opened);
		} catch (error) {
			await Promise.allSettled(opened.map(async (close) => close()));
			throw error;
		}
		const daemon = new WorkerDaemon(parts);
		if (!options.standby) await daemon.begin();
		else {
			// Its lease kept alive meanwhile, so the running copy does not take it for lost.
			daemon.standbyBeat = setInterval(
				() => void parts.cluster?.beat().catch(() => undefined),
				LEASE_BEAT_MS,
			);
			log.info(
				'worker copy taking callbacks; it takes over the rest when the running copy has finished',
				{ port: parts.port },
			);
		}
		return daemon;
	}

	private static async open(
		config: WorkerConfig,
		log: JsonLogger,
		handedPort: number | undefined,
		opened: (() => unknown)[],
	): Promise<DaemonParts> {
		const location = dbLocation(config.db, 'db');
		const ledger = await openLedger(location);
		opened.push(() => ledger.close());
		const store = await openDaemonStore(location, ledger);
		opened.push(() => store.close());
		const outbox = new ForwardOutbox(
			store,
			{
				forwardEmail: config.smtp
					? new EmailForwarder(config.smtp, config.outbox.concurrency)
					: undefined,
				forwardSms: new SmsForwarder(
					new BatchClient(config.provider, config.outbox.concurrency, 30_000),
				),
				post: new PostForwarder(
					(actionKey, url) => postHeaders(config.replies, actionKey, url),
					(actionKey, url) => postSigning(config.replies, actionKey, url) ?? config.signing,
				),
			},
			config.outbox,
			log.child({ part: 'outbox' }),
			config.forward.n8n
				? new N8nForwarder(
						() =>
							config.forward.n8n && {
								...config.forward.n8n,
								signing: config.forward.n8n.signing ?? config.signing,
							},
					)
				: undefined,
			new EventForwarder({
				worker: () =>
					config.events?.url === undefined
						? undefined
						: {
								url: config.events.url,
								headers: config.events.headers,
								signing: config.events.signing ?? config.signing,
							},
				campaignUrl: (name) => config.campaigns.find((c) => c.name === name)?.events,
				outboundAllow: () => config.outbound.allow,
				campaignSigning: async (name) => {
					const own = config.campaigns.find((c) => c.name === name)?.signing;
					if (own) return own;
					const api = name === undefined ? undefined : await events.signingSecretOf(name);
					return api !== undefined ? { secret: api } : config.signing;
				},
			}),
		);
		opened.push(() => outbox.stop());
		outbox.markDeadAfter(() => durationMs(config.events?.maxAge ?? '3d'));
		const events = new CampaignEvents(config, store, () => outbox.kick());
		// Several workers: this one's lease is taken before anything else, so the others never
		// take what it starts for a dead worker's.
		const cluster = await openCluster(location);
		let joined = false;
		opened.push(() => (joined ? cluster?.leave().then(() => cluster.close()) : cluster?.close()));
		await cluster?.beat();
		joined = true;
		const intake = await CallbackIntake.open(
			store,
			spoolDir(config.spool.dir, location),
			config.spool.maxBytes,
			log.child({ part: 'spool' }),
		);
		opened.push(() => intake.close(0));
		const links = linkStoreOf(ledger);
		// The redirect answers 410 and retention prunes past the same period (90d, 24h, 30m).
		const linkTtlMs = durationMs(config.links.ttl)!;
		const processor = new CallbackProcessor(
			store,
			ledger,
			config.replies,
			outbox,
			log.child({ part: 'callbacks' }),
			config.optOut,
			config.forward.n8n,
			events,
			{
				store: links,
				scanWindowMs: config.links.scanWindowSeconds * 1000,
				clicked: (click, token, at) => events.clickForwards(click, token, at),
			},
			config.suppressPermanentFailures,
		);
		// One runner sends every campaign, the config's and the API's alike.
		const runner = new CampaignRunner({
			config,
			sendingMayGo: () => intake.sendingMayGo(),
			events,
		});
		const scheduler = new CampaignScheduler(
			config.campaigns,
			new ConfigCampaignRuns(runner, store, log.child({ part: 'campaigns' })),
			log.child({ part: 'cron' }),
			store,
		);
		// The campaign API: its routes only with the config's token (the server answers 404
		// without); its runner always, started with the rest (begin), so campaigns started
		// through it finish even if the token is taken out of the config.
		const api = await CampaignApi.open(runner, location, ledger, log.child({ part: 'api' }), {
			maxCsvBytes: config.server.apiMaxCsvBytes,
		});
		opened.push(() => api.close());
		// A reply e-mail names an API campaign's recipient from its pages, as a config run's from its CSV.
		processor.lookUpRows((run) => api.rowsOf(run));
		const health = new HealthCheck({
			counts: async () => ({
				eventsWaiting: await store.waitingEvents(),
				outbox: await store.forwardCounts(),
				...(cluster ? { workers: await cluster.members(LEASE_STALE_MS) } : {}),
			}),
			intake: () => intake.state(),
			smtpError: () => outbox.smtpError,
			campaignsRunning: () => scheduler.runningCount + api.runner.runningCount,
			failingDestinations: () => failingDestinations(store, Date.now()),
		});
		const server = new WebhookServer({
			host: config.server.host,
			port: config.server.port,
			handedPort,
			secrets: [
				config.server.secret,
				...(config.server.previousSecret !== undefined ? [config.server.previousSecret] : []),
			],
			accountSid: config.provider.accountSid,
			maxBodyBytes: config.server.maxBodyBytes,
			maxConnections: config.server.maxConnections,
			maxConnectionsPerClient: config.server.maxConnectionsPerClient,
			store: (key, event, at) => intake.take(key, event, at),
			health: () => health.report(),
			healthToken: config.server.reportToken,
			reports: {
				tokens: { report: config.server.reportToken, api: config.server.apiToken },
				// The URL the operator says the worker is reached at: a proxy's X-Forwarded-Proto could be anyone's.
				// Every interface's pause, resume and cancel, on the API's campaigns too.
				control: api.campaigns.control,
				secureCookies: config.server.publicUrl?.startsWith('https:') === true,
				ledger,
				figures: { currency: config.currency, pricePerSegment: config.limits?.pricePerSegment },
				dashboard: new Dashboard({
					ledger,
					pricePerSegment: config.limits?.pricePerSegment,
					apiCampaigns: () => api.store.campaignsIn(['draft', 'failed']),
					cron: () => scheduler.nextTicks(),
				}),
			},
			links:
				config.links.baseUrl === undefined
					? undefined
					: {
							path: linkBasePath(config.links.baseUrl),
							ttlMs: linkTtlMs,
							target: (token) => links.target(token),
							store: (key, event, at) => intake.take(key, event, at),
							log: log.child({ part: 'links' }),
						},
			// The campaign API's route plugins (ApiRoutes) are mounted here, under /api.
			api: { token: config.server.apiToken, routes: [api.routes] },
			log: log.child({ part: 'webhooks' }),
		});
		const port = await server.listen();
		const retention = new Retention(
			store,
			ledger,
			config.retentionDays,
			log.child({ part: 'retention' }),
			{ store: api.store },
			{ store: links, ttlMs: linkTtlMs },
		);
		return {
			port,
			store,
			ledger,
			server,
			processor,
			outbox,
			scheduler,
			log,
			cluster,
			retention,
			intake,
			config,
			shownDb: location.kind === 'postgres' ? location.shown : location.path,
			events,
			api,
		};
	}

	/** Everything besides the callbacks: the processor, the outbox, the lease, retention, the cron. */
	async begin(): Promise<void> {
		const {
			outbox,
			cluster,
			processor,
			log,
			retention,
			intake,
			ledger,
			config,
			scheduler,
			api,
			port,
			shownDb,
		} = this.parts;
		if (this.begun) return;
		this.begun = true;
		if (this.standbyBeat) clearInterval(this.standbyBeat);
		await outbox.recover();
		this.lease =
			cluster && new WorkerLease(cluster, outbox, processor, log.child({ part: 'lease' }));
		this.lease?.start();
		retention.start();
		intake.start(processor);
		processor.start();
		// Every run sharing the store (campaign run, another worker's) holds its sending while
		// this stamp is old: a STOP this worker spooled is in before the next message (CallbacksGate).
		let stamping = false;
		this.callbacksStamp = setInterval(() => {
			if (stamping || !intake.sendingMayGo()) return;
			stamping = true;
			void ledger
				.stampCallbacksIn(WORKER_ID, { host: hostname(), pid: process.pid })
				.catch(() => undefined)
				.finally(() => (stamping = false));
		}, CALLBACKS_STAMP_MS);
		outbox.start();
		await this.resumeRuns(config);
		scheduler.start();
		api.start();
		log.info('worker started', {
			port,
			publicUrl: config.server.publicUrl,
			campaigns: config.campaigns.map((c) => c.name),
			replyRules: config.replies.length,
			db: shownDb,
		});
	}

	/** The test suite's command (see testControl): a tick, a catch-up look, a prune or a look for spools, now. */
	testCommand(command: TestCommand): void {
		const { scheduler, intake, retention, config } = this.parts;
		const log = this.parts.log.child({ part: 'test control' });
		if (command.cloudtelTest === 'catchUp') void scheduler.lookForMissed();
		else if (command.cloudtelTest === 'spools') intake.lookForOrphans();
		else if (command.cloudtelTest === 'outbox') this.parts.outbox.kick();
		else if (command.cloudtelTest === 'clock') daemonClock.advance(command.advanceMs);
		else if (command.cloudtelTest === 'prune')
			void retention
				.prune(Date.now())
				.catch((error: Error) => log.error('pruning failed', { error }));
		else if (command.cloudtelTest === 'tick') {
			const campaign = config.campaigns.find((c) => c.name === command.campaign);
			const at =
				command.at !== undefined
					? new Date(command.at)
					: new Date(Math.floor(Date.now() / 1000) * 1000);
			if (!campaign) return log.error('no such campaign to tick', { campaign: command.campaign });
			log.info('tick fired', { campaign: campaign.name, tick: at.toISOString() });
			scheduler.tick(campaign, at);
		}
	}

	/** Runs a shutdown cut short resume now; those of campaigns no longer configured are closed. */
	private async resumeRuns(config: WorkerConfig): Promise<void> {
		const { store, scheduler, log } = this.parts;
		for (const run of await store.unfinishedRuns()) {
			const campaign = config.campaigns.find((c) => c.name === run.campaign);
			if (campaign && !scheduler.isRunning(campaign.name)) scheduler.resume(campaign, run.run);
			else if (!campaign) {
				await store.finishRun(
					run.run,
					'abandoned: the campaign is no longer in the config',
					Date.now(),
				);
				log.warn('campaign run abandoned: the campaign is no longer in the config', {
					campaign: run.campaign,
					run: run.run,
				});
			}
		}
	}

	/**
	 * Graceful: no new callback, tick or forward is taken; callbacks being received are
	 * stored and answered, campaign batches in flight settle, stored events are processed
	 * and forwards under way finish. Everything left waits in the database.
	 */
	stop(reason = 'stop'): Promise<void> {
		const {
			log,
			retention,
			server,
			scheduler,
			api,
			outbox,
			intake,
			processor,
			ledger,
			cluster,
			store,
		} = this.parts;
		this.stopping ??= (async () => {
			log.info('worker stopping', { reason });
			if (this.standbyBeat) clearInterval(this.standbyBeat);
			retention.stop();
			await Promise.all([server.close(), scheduler.stop(), api.stop(), outbox.stop()]);
			// What the spool holds goes into the store now if it can; else it waits in the file.
			await intake.close();
			await processor.idle();
			if (this.callbacksStamp) clearInterval(this.callbacksStamp);
			// Stopped with everything it took in the store (or its spool, fed by the next start or another worker's orphan feed).
			await ledger.dropCallbacksStamp(WORKER_ID).catch(() => undefined);
			if (!this.lease && cluster)
				await cluster
					.leave()
					.then(() => cluster?.close())
					.catch(() => undefined);
			await this.lease
				?.stop()
				.catch((error: Error) =>
					log.error(
						'leaving the cluster failed; the others take this worker for lost in a few seconds',
						{ error },
					),
				);
			const counts = await store.forwardCounts().catch(() => 'unknown: the store does not answer');
			await api.close();
			await store.close();
			await ledger.close();
			log.info('worker stopped', { reason, outbox: counts });
		})();
		return this.stopping;
	}
}

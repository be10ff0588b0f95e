import type { Socket } from 'node:net';
import type { WorkerConfig } from '../config/workerConfigSchema';
import type { Ledger } from '../storage/ledger';
import { dbLocation } from '../storage/dbLocation';
import { linkStoreOf, openCluster, openDaemonStore, openLedger } from '../storage/openStores';
import { linkBasePath } from '../settings/linkBase';
import { catchUpMs } from './campaigns/missedTicks';
import { WORKER_ID } from '../storage/workerId';
import { hostname } from 'node:os';
import { BatchClient } from '../provider/batchClient';
import { CallbackProcessor } from './callbackProcessor';
import { CampaignRunner } from './campaigns/campaignRunner';
import { CampaignScheduler } from './campaigns/campaignScheduler';
import type { DaemonStore } from '../storage/daemonStore';
import { EmailForwarder } from './forward/emailForwarder';
import { ForwardOutbox } from './forward/forwardOutbox';
import { N8nForwarder } from './forward/n8nForwarder';
import { EventForwarder } from './forward/eventForwarder';
import { CampaignEvents } from './events/campaignEvents';
import { CampaignApi } from './api/campaignApi';
import { PostForwarder } from './forward/postForwarder';
import { postHeaders } from './forward/postHeaders';
import { SmsForwarder } from './forward/smsForwarder';
import { WebhookServer } from './http/webhookServer';
import type { JsonLogger } from './jsonLogger';
import type { PgCluster } from '../storage/postgres/pgCluster';
import { LEASE_BEAT_MS, LEASE_STALE_MS, WorkerLease } from './workerLease';
import { Retention } from './retention';
import { HealthCheck } from './http/healthCheck';
import { CallbackIntake } from './spool/callbackIntake';
import { spoolDir } from './spool/spoolDir';
import type { TestCommand } from './testControl';

/** How often a worker stamps that its callbacks are in (see CallbacksGate's FRESH_MS). */
const CALLBACKS_STAMP_MS = 1_000;

/**
 * `cloudtel worker`: the webhook server, the callback processor, the outbox of forwards
 * and the campaign cron, over one SQLite file, or one Postgres that several workers
 * share (each then holds a lease; see WorkerLease). Whatever a stop or a crash
 * interrupts is in the database and taken up by the next start, or by the other workers.
 */
export class WorkerDaemon {
	private stopping: Promise<void> | undefined;

	private constructor(
		readonly port: number,
		readonly store: DaemonStore,
		private readonly ledger: Ledger,
		private readonly server: WebhookServer,
		readonly processor: CallbackProcessor,
		readonly outbox: ForwardOutbox,
		readonly scheduler: CampaignScheduler,
		private readonly log: JsonLogger,
		private readonly cluster: PgCluster | undefined,
		private readonly retention: Retention,
		readonly intake: CallbackIntake,
		private readonly config: WorkerConfig,
		private readonly shownDb: string,
		/** Events out: what the campaign API's runs call (started, finished, paused). */
		readonly events: CampaignEvents,
		/** The campaign API: its runner, and its routes under /api when the config sets server.apiToken. */
		readonly api: CampaignApi,
	) {}

	private lease: WorkerLease | undefined;

	/** A connection the supervisor accepted and handed over. */
	serve(socket: Socket): void {
		this.server.serve(socket);
	}

	private standbyBeat: NodeJS.Timeout | undefined;
	private callbacksStamp: NodeJS.Timeout | undefined;
	private begun = false;

	/**
	 * Opens the stores and starts taking callbacks. `standby` (a reload's new copy, see
	 * WorkerSupervisor): only that, until `begin()`, while the copy it replaces finishes
	 * what it took; forwards cut off mid-attempt are then not mistaken for a crash's.
	 */
	/** `handedPort`: the supervisor listens on it and hands over connections (serve); else the worker listens itself. */
	static async start(
		config: WorkerConfig,
		log: JsonLogger,
		options: { standby?: boolean; handedPort?: number } = {},
	): Promise<WorkerDaemon> {
		const location = dbLocation(config.db, 'db');
		const ledger = await openLedger(location);
		let store: DaemonStore;
		try {
			store = await openDaemonStore(location, ledger);
		} catch (error) {
			await ledger.close();
			throw error;
		}
		const outbox = new ForwardOutbox(
			store,
			{
				forwardEmail: config.smtp
					? new EmailForwarder(config.smtp, config.outbox.concurrency)
					: undefined,
				forwardSms: new SmsForwarder(
					new BatchClient(config.provider, config.outbox.concurrency, 30_000),
				),
				post: new PostForwarder((actionKey, url) => postHeaders(config.replies, actionKey, url)),
			},
			config.outbox,
			log.child({ part: 'outbox' }),
			config.forward.n8n ? new N8nForwarder(() => config.forward.n8n) : undefined,
			new EventForwarder({
				worker: () => config.events,
				campaignUrl: (name) => config.campaigns.find((c) => c.name === name)?.events,
				outboundAllow: () => config.outbound.allow,
			}),
		);
		const events = new CampaignEvents(config, store, () => outbox.kick());
		// Several workers: this one's lease is taken before anything else, so the others never
		// take what it starts for a dead worker's.
		let cluster: PgCluster | undefined;
		try {
			cluster = await openCluster(location);
			await cluster?.beat();
		} catch (error) {
			await Promise.allSettled([outbox.stop(), store.close(), ledger.close(), cluster?.close()]);
			throw error;
		}
		const intake = await CallbackIntake.open(
			store,
			spoolDir(config.spool.dir, location),
			config.spool.maxBytes,
			log.child({ part: 'spool' }),
		);
		const links = linkStoreOf(ledger);
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
		);
		const scheduler = new CampaignScheduler(
			config.campaigns,
			new CampaignRunner(
				config,
				store,
				log.child({ part: 'campaigns' }),
				() => intake.sendingMayGo(),
				events,
			),
			log.child({ part: 'cron' }),
			store,
		);
		// The campaign API: its routes only with the config's token (the server answers 404
		// without); its runner always, started with the rest (begin), so campaigns started
		// through it finish even if the token is taken out of the config.
		let api: CampaignApi;
		try {
			api = await CampaignApi.open(config, location, ledger, log.child({ part: 'api' }), {
				sendingMayGo: () => intake.sendingMayGo(),
				maxCsvBytes: config.server.apiMaxCsvBytes,
				events,
			});
		} catch (error) {
			await Promise.allSettled([
				outbox.stop(),
				intake.close(0),
				store.close(),
				ledger.close(),
				cluster?.leave().then(() => cluster?.close()),
			]);
			throw error;
		}
		const health = new HealthCheck({
			counts: async () => ({
				eventsWaiting: await store.waitingEvents(),
				outbox: await store.forwardCounts(),
				...(cluster ? { workers: await cluster.members(LEASE_STALE_MS) } : {}),
			}),
			intake: () => intake.state(),
			smtpError: () => outbox.smtpError,
			campaignsRunning: () => scheduler.runningCount + api.runner.runningCount,
		});
		const server = new WebhookServer({
			host: config.server.host,
			port: config.server.port,
			handedPort: options.handedPort,
			secrets: [
				config.server.secret,
				...(config.server.previousSecret !== undefined ? [config.server.previousSecret] : []),
			],
			accountSid: config.provider.accountSid,
			maxBodyBytes: config.server.maxBodyBytes,
			maxConnections: config.server.maxConnections,
			maxConnectionsPerClient: config.server.maxConnectionsPerClient,
			store: (key, event, at) => intake.take(key, event, at),
			stored: () => processor.kick(),
			health: () => health.report(),
			healthToken: config.server.reportToken,
			reports: { token: config.server.reportToken, ledger },
			links:
				config.links.baseUrl === undefined
					? undefined
					: {
							path: linkBasePath(config.links.baseUrl),
							// The same period syntax as a campaign's catchUp (90d, 24h, 30m).
							ttlMs: catchUpMs(config.links.ttl)!,
							target: (token) => links.target(token),
							store: (key, event, at) => intake.take(key, event, at),
							stored: () => processor.kick(),
							log: log.child({ part: 'links' }),
						},
			// The campaign API's route plugins (ApiRoutes) are mounted here, under /api.
			api: { token: config.server.apiToken, routes: [api.routes] },
			log: log.child({ part: 'webhooks' }),
		});
		let port: number;
		try {
			port = await server.listen();
		} catch (error) {
			await Promise.allSettled([
				outbox.stop(),
				intake.close(0),
				api.close(),
				store.close(),
				ledger.close(),
				cluster?.leave().then(() => cluster?.close()),
			]);
			throw error;
		}
		const retention = new Retention(
			store,
			ledger,
			config.retentionDays,
			log.child({ part: 'retention' }),
			{ store: api.store, dir: api.dir },
			{ store: links, ttlMs: catchUpMs(config.links.ttl)! },
		);
		const daemon = new WorkerDaemon(
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
			location.kind === 'postgres' ? location.shown : location.path,
			events,
			api,
		);
		if (!options.standby) await daemon.begin();
		else {
			// Its lease kept alive meanwhile, so the running copy does not take it for lost.
			daemon.standbyBeat = setInterval(
				() => void cluster?.beat().catch(() => undefined),
				LEASE_BEAT_MS,
			);
			log.info(
				'worker copy taking callbacks; it takes over the rest when the running copy has finished',
				{ port },
			);
		}
		return daemon;
	}

	/** Everything besides the callbacks: the processor, the outbox, the lease, retention, the cron. */
	async begin(): Promise<void> {
		if (this.begun) return;
		this.begun = true;
		if (this.standbyBeat) clearInterval(this.standbyBeat);
		await this.outbox.recover();
		this.lease =
			this.cluster &&
			new WorkerLease(this.cluster, this.outbox, this.processor, this.log.child({ part: 'lease' }));
		this.lease?.start();
		this.retention.start();
		this.intake.start(this.processor);
		this.processor.start();
		// Every run sharing the store (campaign run, another worker's) holds its sending while
		// this stamp is old: a STOP this worker spooled is in before the next message (CallbacksGate).
		let stamping = false;
		this.callbacksStamp = setInterval(() => {
			if (stamping || !this.intake.sendingMayGo()) return;
			stamping = true;
			void this.ledger
				.stampCallbacksIn(WORKER_ID, { host: hostname(), pid: process.pid })
				.catch(() => undefined)
				.finally(() => (stamping = false));
		}, CALLBACKS_STAMP_MS);
		this.outbox.start();
		await this.resumeRuns(this.config);
		this.scheduler.start();
		this.api.start();
		const config = this.config;
		this.log.info('worker started', {
			port: this.port,
			publicUrl: config.server.publicUrl,
			campaigns: config.campaigns.map((c) => c.name),
			replyRules: config.replies.length,
			db: this.shownDb,
		});
	}

	/** The test suite's command (see testControl): a tick, a catch-up look, a prune or a look for spools, now. */
	testCommand(command: TestCommand): void {
		const log = this.log.child({ part: 'test control' });
		if (command.cloudtelTest === 'catchUp') void this.scheduler.lookForMissed();
		else if (command.cloudtelTest === 'spools') this.intake.lookForOrphans();
		else if (command.cloudtelTest === 'prune')
			void this.retention
				.prune(Date.now())
				.catch((error: Error) => log.error('pruning failed', { error }));
		else if (command.cloudtelTest === 'tick') {
			const campaign = this.config.campaigns.find((c) => c.name === command.campaign);
			const at =
				command.at !== undefined
					? new Date(command.at)
					: new Date(Math.floor(Date.now() / 1000) * 1000);
			if (!campaign) return log.error('no such campaign to tick', { campaign: command.campaign });
			log.info('tick fired', { campaign: campaign.name, tick: at.toISOString() });
			this.scheduler.tick(campaign, at);
		}
	}

	/** Runs a shutdown cut short resume now; those of campaigns no longer configured are closed. */
	private async resumeRuns(config: WorkerConfig): Promise<void> {
		for (const run of await this.store.unfinishedRuns()) {
			const campaign = config.campaigns.find((c) => c.name === run.campaign);
			if (campaign && !this.scheduler.isRunning(campaign.name))
				this.scheduler.resume(campaign, run.run);
			else if (!campaign) {
				await this.store.finishRun(
					run.run,
					'abandoned: the campaign is no longer in the config',
					Date.now(),
				);
				this.log.warn('campaign run abandoned: the campaign is no longer in the config', {
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
		this.stopping ??= (async () => {
			this.log.info('worker stopping', { reason });
			if (this.standbyBeat) clearInterval(this.standbyBeat);
			this.retention.stop();
			await Promise.all([
				this.server.close(),
				this.scheduler.stop(),
				this.api.stop(),
				this.outbox.stop(),
			]);
			// What the spool holds goes into the store now if it can; else it waits in the file.
			await this.intake.close();
			await this.processor.idle();
			if (this.callbacksStamp) clearInterval(this.callbacksStamp);
			// Stopped with everything it took in the store (or its spool, fed by the next start or another worker's orphan feed).
			await this.ledger.dropCallbacksStamp(WORKER_ID).catch(() => undefined);
			if (!this.lease && this.cluster)
				await this.cluster
					.leave()
					.then(() => this.cluster?.close())
					.catch(() => undefined);
			await this.lease
				?.stop()
				.catch((error: Error) =>
					this.log.error(
						'leaving the cluster failed; the others take this worker for lost in a few seconds',
						{ error },
					),
				);
			const counts = await this.store
				.forwardCounts()
				.catch(() => 'unknown: the store does not answer');
			await this.api.close();
			await this.store.close();
			await this.ledger.close();
			this.log.info('worker stopped', { reason, outbox: counts });
		})();
		return this.stopping;
	}
}

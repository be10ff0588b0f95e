import { basicAuthorization } from '../../../api';
import { ExitCodes } from '../campaign/exitCodes';
import { FatalError, UsageError } from '../errors';
import { ConfigError } from '../config/configError';
import { configFileExposure } from '../config/configFileExposure';
import {
	loadWorkerConfig,
	loadWorkerConfigForCheck,
	settingsFromEnvironment,
} from '../config/loadWorkerConfig';
import type { WorkerConfig } from '../config/workerConfigSchema';
import { isPostgresUrl } from '../storage/dbLocation';
import { setPrivateFileWarnings } from '../storage/privateFile';
import { isStoreFault } from '../storage/storeFault';
import { checkCampaignCsvs } from './campaigns/csvCheck';
import { bufferedLines } from './bufferedLines';
import { reportLinkCommand } from './reportLinkCommand';
import { JsonLogger } from './jsonLogger';
import { Redactor } from './redactor';
import { WorkerDaemon } from './workerDaemon';
import cluster from 'node:cluster';
import {
	BEGIN,
	STANDBY_ENV,
	STORE_AWAY_EXIT,
	WorkerSupervisor,
} from './supervisor/workerSupervisor';
import { HANDED_PORT_ENV, takeHandedConnections } from './supervisor/connectionHandover';
import { takeTestCommands } from './testControl';
import { signingSecrets } from '../config/signingSecrets';
import { parseFlags } from '../settings/parseFlags';

export const WORKER_USAGE = `cloudtel worker --config FILE [--check]
cloudtel worker --config FILE --report-link [--campaign NAME] [--minutes N]

Runs unattended: campaigns on cron, delivery receipts and replies on webhooks, replies
rerouted by rules (SMS, e-mail, a URL, opt-out). JSON log lines on stdout. SIGTERM or
Ctrl-C stops it gracefully; SIGHUP (kill -HUP PID) reloads the code and the config
without closing the port. --check validates the config, and each campaign's CSV
header against its settings, and exits.

--report-link prints a link to the running worker's campaign reports (one campaign's
with --campaign) that opens them in a browser for N minutes (default 60), signed with
server.reportToken; the token itself never goes into a link.
`;

/** A graceful stop waits for in-flight work; not longer than this. */
const STOP_DEADLINE_MS = 60_000;

/** Every secret the config holds, and the Basic header made of two of them. */
export function configSecrets(config: WorkerConfig): string[] {
	const dbPassword = isPostgresUrl(config.db)
		? decodeURIComponent(new URL(config.db).password)
		: '';
	const headerValues = config.replies.flatMap((r) =>
		r.actions.flatMap((a) => (a.type === 'post' ? Object.values(a.headers ?? {}) : [])),
	);
	// The n8n trigger's secret, in its URL's query or a header.
	const n8n = config.forward.n8n;
	const n8nSecrets = n8n
		? [...new URL(n8n.url).searchParams.values(), ...Object.values(n8n.headers ?? {})]
		: [];
	// An events URL's secret, likewise (the CloudTel Trigger's), and those of campaigns' own URLs.
	const eventUrls = [
		...(config.events?.url !== undefined ? [config.events.url] : []),
		...config.campaigns.flatMap((c) => (c.events ? [c.events] : [])),
	];
	const eventSecrets = [
		...eventUrls.flatMap((u) => [...new URL(u).searchParams.values()]),
		...Object.values(config.events?.headers ?? {}),
	];
	return [
		config.provider.authToken,
		config.server.secret,
		config.server.previousSecret ?? '',
		config.server.reportToken ?? '',
		config.server.apiToken ?? '',
		config.smtp?.password ?? '',
		dbPassword,
		basicAuthorization(config.provider.accountSid, config.provider.authToken).slice(
			'Basic '.length,
		),
		...headerValues,
		...n8nSecrets,
		...eventSecrets,
		...signingSecrets(config),
	];
}

export async function workerCommand(argv: string[]): Promise<number> {
	if (!cluster.isWorker) return workerOrSupervisor(argv);
	// A copy the supervisor started: its channel to the supervisor keeps it alive, so once
	// it has said why it could not start (cli.ts prints the error), it exits.
	try {
		return await workerOrSupervisor(argv);
	} catch (error) {
		setImmediate(() => process.exit());
		throw error;
	}
}

async function workerOrSupervisor(argv: string[]): Promise<number> {
	const values = parseFlags(argv, {
		config: { type: 'string' },
		check: { type: 'boolean' },
		help: { type: 'boolean', short: 'h' },
		'report-link': { type: 'boolean' },
		campaign: { type: 'string' },
		minutes: { type: 'string' },
	});
	if (values.help) {
		process.stdout.write(WORKER_USAGE);
		return 0;
	}
	if (!values.config)
		throw new UsageError(
			'cloudtel worker needs --config FILE (YAML or JSON; see examples/worker.config.yaml)',
		);
	// A link needs the report token and the ledger only: the provider's settings may be unset.
	const { config, unset } =
		values.check || values['report-link']
			? loadWorkerConfigForCheck(values.config)
			: { config: loadWorkerConfig(values.config), unset: [] };
	if (values['report-link']) {
		const { link, note } = await reportLinkCommand(config, values.campaign, values.minutes);
		if (note) process.stderr.write(`cloudtel: ${note}\n`);
		process.stdout.write(link + '\n');
		return 0;
	}
	if (values.campaign !== undefined || values.minutes !== undefined)
		throw new UsageError('--campaign and --minutes go with --report-link');
	// A CSV that does not fit its campaign would fail at every tick: found now instead.
	const csvProblems = await checkCampaignCsvs(config.campaigns);
	if (csvProblems.length > 0) throw new ConfigError(values.config, csvProblems);
	const exposed = configFileExposure(values.config, configSecrets(config));
	if (values.check) {
		if (exposed) process.stderr.write(`cloudtel: warning: ${exposed}\n`);
		process.stdout.write(
			`${values.config}: valid; campaigns: ${config.campaigns.length}, reply rules: ${config.replies.length}\n`,
		);
		if (unset.length > 0)
			process.stdout.write(
				`to start, the worker needs these from its environment, not set in this one: ${unset.join(', ')}\n`,
			);
		return 0;
	}
	const write = bufferedLines((text) => process.stdout.write(text));
	const logFor = (c: WorkerConfig) =>
		new JsonLogger(write, new Redactor(configSecrets(c)), {}, c.log);
	const log = logFor(config);
	// Once, by the process the user started (its copies load the same file).
	if (exposed && !cluster.isWorker) log.warn(exposed);
	setPrivateFileWarnings((message) => log.warn(message));
	const path = values.config;
	// The process the user started holds the socket; the worker runs in copies of it (see WorkerSupervisor).
	if (!cluster.isWorker && process.env.CLOUDTEL_WORKER_SUPERVISOR !== '0') {
		const supervisorSecrets = new Set(configSecrets(config));
		return new WorkerSupervisor(
			path,
			async () => {
				const next = loadWorkerConfig(path);
				const problems = await checkCampaignCsvs(next.campaigns);
				if (problems.length > 0) throw new ConfigError(path, problems);
				return next;
			},
			config,
			(c) => {
				// Secrets only add up: a line of the old copy's may still carry one the new config dropped.
				for (const secret of configSecrets(c)) supervisorSecrets.add(secret);
				return new JsonLogger(
					write,
					new Redactor([...supervisorSecrets]),
					{ part: 'supervisor' },
					c.log,
				);
			},
			() => settingsFromEnvironment(path),
		).run();
	}
	return runWorker(config, log);
}

/** The worker itself: in a copy the supervisor started, or on its own with CLOUDTEL_WORKER_SUPERVISOR=0. */
async function runWorker(config: WorkerConfig, log: JsonLogger): Promise<number> {
	const handed = cluster.isWorker ? process.env[HANDED_PORT_ENV] : undefined;
	const daemon = await WorkerDaemon.start(config, log, {
		standby: cluster.isWorker && process.env[STANDBY_ENV] === '1',
		handedPort: handed !== undefined ? Number(handed) : undefined,
	}).catch((error: Error) => {
		// A copy whose database is away says so by its exit code: the supervisor waits it out.
		throw cluster.isWorker && isStoreFault(error)
			? new FatalError(error.message, STORE_AWAY_EXIT, { cause: error })
			: error;
	});
	if (cluster.isWorker) {
		// The supervisor holds the socket: connections come from it once this copy says it is ready.
		if (handed !== undefined) takeHandedConnections((socket) => daemon.serve(socket));
		process.on('message', (m: unknown) => {
			if (m !== BEGIN) return;
			daemon.begin().catch((error: Error) => {
				log.error('taking over from the previous copy failed', { error });
				process.exit(ExitCodes.Fatal);
			});
		});
		// A hang-up of the terminal reaches the whole process group: the supervisor decides what it means.
		process.on('SIGHUP', () => undefined);
		process.send?.({ type: 'ready' });
	}
	takeTestCommands((command) => daemon.testCommand(command), cluster.isWorker);
	await new Promise<void>((resolve) => {
		let signalled = false;
		const onSignal = (name: NodeJS.Signals) => {
			if (signalled) {
				log.warn('second signal: exiting at once', { signal: name });
				process.exit(ExitCodes.Interrupted);
			}
			signalled = true;
			// Also keeps the process alive while it stops: work that never settles must not
			// let it slip away silently with exit code 0.
			const deadline = setTimeout(() => {
				log.error('stopping took too long; exiting with work under way', {
					signal: name,
					afterMs: STOP_DEADLINE_MS,
				});
				process.exit(ExitCodes.Fatal);
			}, STOP_DEADLINE_MS);
			daemon.stop(name).then(
				() => {
					clearTimeout(deadline);
					resolve();
				},
				(error: Error) => {
					clearTimeout(deadline);
					log.error('stop failed', { error });
					resolve();
				},
			);
		};
		process.on('SIGTERM', onSignal);
		process.on('SIGINT', onSignal);
	});
	// A copy's channel to the supervisor would keep it alive: it is done, so it goes.
	if (cluster.isWorker) process.exit(0);
	return 0;
}

import { parseArgs } from 'node:util';
import { basicAuthorization } from '../../../api';
import { ExitCodes } from '../campaign/exitCodes';
import { UsageError } from '../campaign/fatalError';
import { ConfigError } from '../config/configError';
import { loadWorkerConfig } from '../config/loadWorkerConfig';
import type { WorkerConfig } from '../config/workerConfigSchema';
import { isPostgresUrl } from '../store/dbLocation';
import { setPrivateFileWarnings } from '../store/privateFile';
import { checkCampaignCsvs } from './campaigns/csvCheck';
import { bufferedLines } from './bufferedLines';
import { JsonLogger } from './jsonLogger';
import { Redactor } from './redactor';
import { WorkerDaemon } from './workerDaemon';

export const WORKER_USAGE = `cloudtel worker --config FILE [--check]

Runs unattended: campaigns on cron, delivery receipts and replies on webhooks, replies
rerouted by rules (SMS, e-mail, a URL, opt-out). JSON log lines on stdout. SIGTERM or
Ctrl-C stops it gracefully. --check validates the config, and each campaign's CSV
header against its settings, and exits.
`;

/** A graceful stop waits for in-flight work; not longer than this. */
const STOP_DEADLINE_MS = 60_000;

/** Every secret the config holds, and the Basic header made of two of them. */
export function configSecrets(config: WorkerConfig): string[] {
	const dbPassword = isPostgresUrl(config.db) ? decodeURIComponent(new URL(config.db).password) : '';
	return [config.provider.authToken, config.server.secret, config.server.reportToken ?? '', config.smtp?.password ?? '', dbPassword, basicAuthorization(config.provider.accountSid, config.provider.authToken).slice('Basic '.length)];
}

export async function workerCommand(argv: string[]): Promise<number> {
	let values: { config?: string; check?: boolean; help?: boolean };
	try {
		({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { config: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (values.help) {
		process.stdout.write(WORKER_USAGE);
		return 0;
	}
	if (!values.config) throw new UsageError('cloudtel worker needs --config FILE (YAML or JSON; see examples/worker.config.yaml)');
	const config = loadWorkerConfig(values.config);
	// A CSV that does not fit its campaign would fail at every tick: found now instead.
	const csvProblems = await checkCampaignCsvs(config.campaigns);
	if (csvProblems.length > 0) throw new ConfigError(values.config, csvProblems);
	if (values.check) {
		process.stdout.write(`${values.config}: valid; campaigns: ${config.campaigns.length}, reply rules: ${config.replies.length}\n`);
		return 0;
	}
	const log = new JsonLogger(bufferedLines((text) => process.stdout.write(text)), new Redactor(configSecrets(config)));
	setPrivateFileWarnings((message) => log.warn(message));
	const daemon = await WorkerDaemon.start(config, log);
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
				log.error('stopping took too long; exiting with work under way', { signal: name, afterMs: STOP_DEADLINE_MS });
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
	return 0;
}

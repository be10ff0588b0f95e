import { FatalError } from './errors';
import { ExitCodes } from './campaign/exitCodes';
import type * as CampaignControl from './cli/campaignControlCommand';
import type * as CampaignEvidence from './cli/campaignEvidenceCommand';
import type * as CampaignReport from './cli/campaignReportCommand';
import type * as CampaignRun from './cli/campaignRunCommand';
import type * as ConfigRun from './cli/configRunCommand';
import type * as CampaignRetry from './cli/campaignRetryCommand';
import type * as Contact from './cli/contactCommand';
import type * as Demo from './cli/demoCommand';
import type * as OptOuts from './cli/optOutsCommand';
import type * as Events from './cli/eventsCommand';
import { loadSandbox } from './cli/sandboxModule';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	CAMPAIGN_USAGE,
	CONTACT_USAGE,
	CONTROL_USAGE,
	EVIDENCE_USAGE,
	OPTOUTS_USAGE,
	REPORT_USAGE,
	EVENTS_USAGE,
	RETRY_USAGE,
	RUN_USAGE,
	SECRET_USAGE,
	STATUS_USAGE,
	USAGE,
} from './cli/usage';
import { printable } from './csv/printable';
import { newWebhookSecret } from './cli/webhookSecret';
import type * as Worker from './daemon/workerCommand';

// Each command's modules load when it runs: `campaign run` does not pay for the daemon's
// SMTP, YAML and cron libraries at every start.

/** `cloudtel ...`: returns the exit code; bin/cloudtel.js sets it. */
export async function main(argv: string[]): Promise<number> {
	try {
		return await dispatch(argv);
	} catch (error) {
		if (error instanceof FatalError) {
			// Line by line: a config error lists one problem a line, and keeps them so.
			process.stderr.write(`cloudtel: ${error.message.split('\n').map(printable).join('\n')}\n`);
			if (error.exitCode === ExitCodes.Usage)
				process.stderr.write('Run `cloudtel --help` for usage.\n');
			return error.exitCode;
		}
		throw error;
	}
}

async function dispatch(argv: string[]): Promise<number> {
	const [command, sub, ...rest] = argv;
	switch (command) {
		case 'campaign':
			if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help')
				return help(CAMPAIGN_USAGE, sub === undefined);
			if (asksHelp(rest)) {
				const text =
					sub === 'run'
						? RUN_USAGE
						: sub === 'retry-failed'
							? RETRY_USAGE
							: sub === 'status'
								? STATUS_USAGE
								: sub === 'report'
									? REPORT_USAGE
									: sub === 'evidence'
										? EVIDENCE_USAGE
										: CONTROL_USAGE[sub as keyof typeof CONTROL_USAGE];
				if (text !== undefined) return help(text);
			}
			switch (sub) {
				case 'run':
					// A config campaign's run now, as its cron would start it.
					if (rest.some((a) => a === '--config' || a.startsWith('--config=')))
						return load<typeof ConfigRun>('./cli/configRunCommand').configRunCommand(rest);
					return load<typeof CampaignRun>('./cli/campaignRunCommand').campaignRunCommand(rest);
				case 'retry-failed':
					return load<typeof CampaignRetry>('./cli/campaignRetryCommand').campaignRetryCommand(
						rest,
					);
				case 'status':
				case 'pause':
				case 'resume':
				case 'cancel':
				case 'delete':
					return load<typeof CampaignControl>(
						'./cli/campaignControlCommand',
					).campaignControlCommand(sub, rest);
				case 'evidence':
					return load<typeof CampaignEvidence>(
						'./cli/campaignEvidenceCommand',
					).campaignEvidenceCommand(rest);
				case 'report':
					return load<typeof CampaignReport>('./cli/campaignReportCommand').campaignReportCommand(
						rest,
					);
				default:
					return usage(
						`unknown campaign command ${sub === undefined ? '(none)' : JSON.stringify(sub)}: use run, retry-failed, status, report, evidence, pause, resume, cancel or delete`,
					);
			}
		case 'contact':
			if (sub === undefined || sub === '--help' || sub === '-h' || asksHelp(rest))
				return help(CONTACT_USAGE, sub === undefined);
			return load<typeof Contact>('./cli/contactCommand').contactCommand(sub, rest);
		case 'events':
			if (sub === undefined || sub === '--help' || sub === '-h' || asksHelp(rest))
				return help(EVENTS_USAGE, sub === undefined);
			return load<typeof Events>('./cli/eventsCommand').eventsCommand(sub, rest);
		case 'secret':
			if (sub === undefined || sub === '--help' || sub === '-h' || asksHelp(rest))
				return help(SECRET_USAGE, sub === undefined);
			if (sub !== 'new' || rest.length > 0)
				return usage(`unknown secret command ${JSON.stringify([sub, ...rest].join(' '))}: use new`);
			process.stdout.write(`${newWebhookSecret()}\n`);
			return 0;
		case 'optouts':
			if (sub === undefined || sub === '--help' || sub === '-h' || asksHelp(rest))
				return help(OPTOUTS_USAGE, sub === undefined);
			return load<typeof OptOuts>('./cli/optOutsCommand').optOutsCommand(sub, rest);
		case 'demo':
			return load<typeof Demo>('./cli/demoCommand').demoCommand(argv.slice(1));
		case 'sandbox':
			return loadSandbox().runSandboxCli(argv.slice(1));
		case 'worker':
			return load<typeof Worker>('./daemon/workerCommand').workerCommand(argv.slice(1));
		case undefined:
		case 'help':
		case '--help':
		case '-h':
			return help(USAGE, command === undefined);
		case '--version':
		case '-v':
		case 'version':
			process.stdout.write(`cloudtel ${version()}\n`);
			return 0;
		default:
			return usage(`unknown command ${JSON.stringify(command)}`);
	}
}

// Flags whose next argument is a flag of its own, not their value.
const BOOLEAN_FLAGS = new Set([
	'--json',
	'--dry-run',
	'--resend-uncertain',
	'--force',
	'--purge',
	'--require-consent',
	'--smart-encoding',
	'--track-links',
	'--failed',
	'--dead',
	'--dead-only',
]);

/** `--help` or `-h` given as a flag, not as the value of one (`--text -h` sends "-h"). */
function asksHelp(args: string[]): boolean {
	return args.some(
		(a, i) =>
			(a === '--help' || a === '-h') &&
			(i === 0 ||
				!args[i - 1].startsWith('-') ||
				BOOLEAN_FLAGS.has(args[i - 1]) ||
				args[i - 1].includes('=')),
	);
}

/** Asked for, help succeeds; a bare command gets it too, as a usage error. */
function help(text: string, missingCommand = false): number {
	process.stdout.write(text);
	return missingCommand ? ExitCodes.Usage : 0;
}

/** The worker package's version: its package.json is above both the sources and dist/. */
function version(): string {
	for (let dir = __dirname, i = 0; i < 5; i++, dir = join(dir, '..')) {
		try {
			const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
				name?: string;
				version?: string;
			};
			if (pkg.name === '@cloudtel/worker' && pkg.version) return pkg.version;
		} catch {
			// not this folder
		}
	}
	return 'unknown';
}

function load<T>(path: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path) as T;
}

function usage(message: string): number {
	process.stderr.write(`cloudtel: ${message}\n\n${USAGE}`);
	return ExitCodes.Usage;
}

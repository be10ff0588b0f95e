import { FatalError } from './campaign/fatalError';
import { ExitCodes } from './campaign/exitCodes';
import type * as CampaignControl from './cli/campaignControlCommand';
import type * as CampaignRun from './cli/campaignRunCommand';
import type * as Demo from './cli/demoCommand';
import { loadSandbox } from './cli/sandboxModule';
import { USAGE } from './cli/usage';
import { printable } from './report/printable';
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
			if (error.exitCode === ExitCodes.Usage) process.stderr.write('Run `cloudtel --help` for usage.\n');
			return error.exitCode;
		}
		throw error;
	}
}

async function dispatch(argv: string[]): Promise<number> {
	const [command, sub, ...rest] = argv;
	switch (command) {
		case 'campaign':
			switch (sub) {
				case 'run':
					return load<typeof CampaignRun>('./cli/campaignRunCommand').campaignRunCommand(rest);
				case 'status':
				case 'pause':
				case 'resume':
				case 'cancel':
				case 'delete':
					return load<typeof CampaignControl>('./cli/campaignControlCommand').campaignControlCommand(sub, rest);
				default:
					return usage(`unknown campaign command ${sub === undefined ? '(none)' : JSON.stringify(sub)}: use run, status, pause, resume, cancel or delete`);
			}
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
			process.stdout.write(USAGE);
			return command === undefined ? ExitCodes.Usage : 0;
		default:
			return usage(`unknown command ${JSON.stringify(command)}`);
	}
}

function load<T>(path: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(path) as T;
}

function usage(message: string): number {
	process.stderr.write(`cloudtel: ${message}\n\n${USAGE}`);
	return ExitCodes.Usage;
}

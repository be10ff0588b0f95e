import { writeSync } from 'node:fs';
import { ExitCodes } from './campaign/exitCodes';

/**
 * The last resort of the `cloudtel` process: an error no one caught, or a promise no one
 * awaited, ends it with one line on stderr and a non-zero exit, rather than a stack trace
 * or, worse, a process that goes on in a state no code path planned for. Every fault
 * cloudtel knows of (a database or disk that fails, a peer that hangs up) is handled where
 * it happens; reaching this is a bug, and the line says where.
 */
export function installCrashHandler(): void {
	const crash = (kind: string) => (error: unknown) => {
		const e = error instanceof Error ? error : new Error(String(error));
		const where = e.stack
			?.split('\n')
			.find((l) => /^\s+at /.test(l))
			?.trim();
		const code = (e as { code?: string }).code;
		const line = `cloudtel: internal error (${kind}), exiting: ${e.message.split('\n')[0]}${code ? ` [${code}]` : ''}${where ? ` (${where})` : ''}\n`;
		try {
			writeSync(2, line);
		} catch {
			// stderr is gone too: the exit code still says it.
		}
		process.exit(ExitCodes.Fatal);
	};
	process.on('uncaughtException', crash('uncaught exception'));
	process.on('unhandledRejection', crash('unhandled rejection'));
}

import type { WorkerConfig } from '../../config/workerConfigSchema';
import { dbLocation } from '../../storage/dbLocation';
import type { Logger } from '../jsonLogger';
import { spoolDir } from '../callbacks/2-spool/spoolDir';

/**
 * What a reload cannot change, said when it is asked for, so that an edit is not taken
 * for applied. Everything in the config file is read anew by the new copy (forward.n8n,
 * the rules, the campaigns, SMTP, the log settings; not the listening socket, which the
 * supervisor holds: see WorkerSupervisor); two things are not:
 * - settings the environment supplies (CLOUDTEL_AUTH_TOKEN, say): the copies inherit the
 *   environment of the process the user started, which no reload can change;
 * - callbacks the old copy leaves in its spool (the store down as it stops) stay in the
 *   old spool folder when `spool.dir` (or `db`, which names the default one) moves: they
 *   are fed by the next worker that uses that folder, not by the new copy.
 */
export function logReloadLimits(
	previous: WorkerConfig,
	next: WorkerConfig,
	fromEnvironment: readonly string[],
	log: Logger,
): void {
	if (fromEnvironment.length > 0) {
		log.info(
			'reload: settings from the environment keep the values the worker was started with; a change to them needs a restart',
			{ variables: [...fromEnvironment] },
		);
	}
	const before = folder(previous);
	const after = folder(next);
	if (before !== undefined && after !== undefined && before !== after) {
		log.warn(
			'reload: the spool folder changed; callbacks the old copy cannot feed into the store stay in the old folder until a worker that uses it starts',
			{ from: before, to: after },
		);
	}
}

function folder(config: WorkerConfig): string | undefined {
	try {
		return spoolDir(config.spool.dir, dbLocation(config.db, 'db'));
	} catch {
		return undefined;
	}
}

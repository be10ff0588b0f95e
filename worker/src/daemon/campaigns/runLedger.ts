import { claimedChunks } from '../../campaign/claimedChunks';
import type { ChunkSource } from '../../campaign/chunkSource';
import { localChunks } from '../../campaign/localChunks';
import type { Ledger } from '../../storage/ledger';
import { sharedLedgerOf } from '../../storage/openStores';
import type { JsonLogger } from '../jsonLogger';

/**
 * Where a daemon run's chunks come from: where the ledger is shared (Postgres) every worker
 * sends the run together, whichever of them started it, so each claims its chunks.
 */
export function daemonChunks(ledger: Ledger): ChunkSource {
	const shared = sharedLedgerOf(ledger);
	return shared ? claimedChunks(shared) : localChunks;
}

/** Told of each wait for a Postgres restarting under a run: one line when the wait starts. */
export function waitingForPostgres(log: JsonLogger): (waitedMs: number, error: Error) => void {
	return (waitedMs, error) => {
		if (waitedMs === 0)
			log.warn('the connection to Postgres was lost; the run waits for it', { error });
	};
}

import { hostname } from 'node:os';
import type { RunOwner } from './ledger';

/**
 * A run on this machine is alive while its process is; one elsewhere while its heartbeat
 * is fresh. A SIGKILLed run is thus taken over at once, not after a timeout.
 */
export function ownerIsAlive(owner: RunOwner, staleMs: number, now = Date.now()): boolean {
	if (owner.host === hostname()) {
		try {
			process.kill(owner.pid, 0);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
		}
	}
	return owner.heartbeatAt !== undefined && now - owner.heartbeatAt < staleMs;
}

import { randomUUID } from 'node:crypto';

/**
 * This process among the workers sharing a database: it names the chunks and forwards it
 * has on their way, and its lease. New at every start, so a restarted worker never
 * mistakes what its previous life left for its own.
 */
export const WORKER_ID = randomUUID();

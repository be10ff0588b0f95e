import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '../../../sandbox/src';
import { newDatabase } from '../../support/postgres/database';
import { ensureBuilt } from '../daemon/harness';
import { withSandbox } from '../worker/harness';

/** The CLI's Postgres files' set-up: the built CLI, a sandbox and a database of their own, filled in before the tests. */
export function cliOnPostgres(): { sandbox: RunningSandbox; db: string } {
	const rig = {} as { sandbox: RunningSandbox; db: string };
	beforeAll(async () => {
		await ensureBuilt();
		rig.sandbox = await withSandbox();
		rig.db = await newDatabase('cli');
	}, 120_000);
	afterAll(async () => rig.sandbox?.close());
	return rig;
}

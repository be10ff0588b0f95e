/**
 * Set to `1` by the test suite only: the worker then takes commands from the process that
 * started it over the IPC channel of that start (node's `child_process` with `'ipc'` in
 * its stdio), so a test fires a cron tick when it wants one instead of waiting for it.
 * Without both the variable and that channel nothing listens: there is no way to reach it
 * over the network, and a worker started by a user or by systemd has no such channel.
 */
export const TEST_CONTROL_ENV = 'CLOUDTEL_TEST_CONTROL';

/**
 * `tick`: the campaign's cron tick at `at` (ISO; this second when left out), as node-cron
 * would fire it. `catchUp`: the look for missed ticks, due every few seconds, now.
 * `prune`: the retention pass, due hourly, now. `spools`: the look for spools of processes
 * that are gone, due every few seconds, now. `outbox`: the outbox's look for due
 * forwards, due every 30 s at most, now (a replay's). `clock`: the worker's clock (daemonClock.ts)
 * moves `advanceMs` ahead: a variant decision hours away is due.
 */
export type TestCommand =
	| { cloudtelTest: 'tick'; campaign: string; at?: string }
	| { cloudtelTest: 'catchUp' }
	| { cloudtelTest: 'prune' }
	| { cloudtelTest: 'spools' }
	| { cloudtelTest: 'outbox' }
	| { cloudtelTest: 'clock'; advanceMs: number };

export function testControlOn(): boolean {
	return process.env[TEST_CONTROL_ENV] === '1' && typeof process.send === 'function';
}

function isTestCommand(m: unknown): m is TestCommand {
	return (
		typeof m === 'object' &&
		m !== null &&
		typeof (m as { cloudtelTest?: unknown }).cloudtelTest === 'string'
	);
}

/**
 * Runs the commands the parent sends. `keepAlive` false (the process the test started):
 * the channel does not hold the process open, so it exits on a signal as it would without it.
 */
export function takeTestCommands(run: (command: TestCommand) => void, keepAlive: boolean): void {
	if (!testControlOn()) return;
	process.on('message', (m: unknown) => {
		if (isTestCommand(m)) run(m);
	});
	if (!keepAlive) process.channel?.unref();
}

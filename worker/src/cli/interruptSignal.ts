import type { Reporter } from '../campaign/reporter';

/**
 * The first Ctrl-C (or SIGTERM) stops taking new batches and lets those in flight settle,
 * so nothing becomes uncertain; a second one exits at once.
 */
export function interruptSignal(reporter: Reporter): { signal: AbortSignal; dispose(): void } {
	const controller = new AbortController();
	const onSignal = (name: NodeJS.Signals) => {
		if (controller.signal.aborted) {
			process.exit(130);
		}
		reporter.event(
			'interrupt',
			{ signal: name },
			`${name}: finishing the batches in flight (again to quit at once)`,
		);
		controller.abort();
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	return {
		signal: controller.signal,
		dispose() {
			process.off('SIGINT', onSignal);
			process.off('SIGTERM', onSignal);
		},
	};
}

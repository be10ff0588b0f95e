import { JsonReporter } from '../report/jsonReporter';
import type { Reporter } from '../campaign/reporter';
import { TtyReporter } from '../report/ttyReporter';

/** A bar and a summary for a person at a terminal; JSON lines for everything else. */
export function pickReporter(json: boolean): Reporter {
	if (!json && process.stderr.isTTY) return new TtyReporter(true);
	return new JsonReporter();
}

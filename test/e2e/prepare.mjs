// `npm test`'s first step when n8n's installs are not cached (~/.cache/cloudtel emptied, or a
// new pin): both n8n lines and the panel's verdaccio are installed before vitest starts, not
// under it. Installing while vitest ran made its timing tests run on a machine three times
// over-committed; done first, the cold run's vitest sees what a cached run's does.
// Prints what it installed; with everything cached it returns at once.
import { ensureN8n, RELEASES } from './lib/install.mjs';
import { ensureVerdaccio } from './lib/registry.mjs';

const started = performance.now();
const [lines] = await Promise.all([
	Promise.all(RELEASES.map((release) => ensureN8n({ release }))),
	ensureVerdaccio(),
]);
const fresh = lines.filter((line) => !line.cached).map((line) => `n8n ${line.version}`);
const seconds = Math.round((performance.now() - started) / 1000);
console.log(
	fresh.length === 0
		? `n8n installs: cached (${seconds} s)`
		: `n8n installs: ${fresh.join(', ')} installed in ${seconds} s`,
);

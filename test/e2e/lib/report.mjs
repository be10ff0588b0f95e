// A tiny test reporter: named checks with timeouts, a line per result, a closing count.
import { setTimeout as sleep } from 'node:timers/promises';

const results = [];

function elapsed(since) {
	return `${((performance.now() - since) / 1000).toFixed(1)}s`;
}

/** Runs one named check; a throw or a timeout fails it, and the run goes on. */
export async function test(name, fn, { timeoutMs = 120_000 } = {}) {
	const started = performance.now();
	const abort = new AbortController();
	try {
		await Promise.race([
			Promise.resolve().then(fn),
			sleep(timeoutMs, undefined, { signal: abort.signal }).then(() => {
				throw new Error(`timed out after ${timeoutMs} ms`);
			}),
		]);
		results.push({ name, ok: true });
		console.log(`  ok   ${name} (${elapsed(started)})`);
		return true;
	} catch (error) {
		results.push({ name, ok: false, error });
		console.log(`  FAIL ${name} (${elapsed(started)})`);
		console.log(indent(error?.stack ?? String(error)));
		return false;
	} finally {
		abort.abort();
	}
}

export function section(title) {
	console.log(`\n${title}`);
}

function indent(text) {
	return String(text)
		.split('\n')
		.slice(0, 40)
		.map((line) => `       ${line}`)
		.join('\n');
}

/** Prints the closing line (alone on its line) and returns the number of failures. */
export function summary() {
	const failed = results.filter((r) => !r.ok);
	if (failed.length) {
		console.log('\nFailed:');
		for (const r of failed) console.log(`  - ${r.name}`);
	}
	console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
	return failed.length;
}

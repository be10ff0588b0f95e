/**
 * V8 flags for a worker copy. V8 optimises a function once a budget of its bytecode has
 * run; the default budget suits a web page's short life, and a copy met its first burst of
 * callbacks mostly unoptimised: on Node 20 the worker spent 1.6 ms a reply in its first
 * burst of 1,000 and 0.8 ms by the fourth. A 33 times smaller budget optimises the reply
 * path within the first few hundred replies (bench/RESULTS.md, "Reply bursts"). Node 20's
 * V8 (11.x) only: later V8s renamed these flags, tier up through Maglev and keep compiled
 * code on disk (see bin/cloudtel.js), and an unknown flag stops Node from starting.
 */
export function copyV8Flags(v8Version = process.versions.v8): string[] {
	if (Number(v8Version.split('.')[0]) !== 11) return [];
	return [
		'--interrupt-budget=2048',
		'--minimum-invocations-after-ic-update=10',
		'--invocation-count-for-osr=50',
	];
}

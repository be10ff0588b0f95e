import { dirname, join } from 'node:path';

/**
 * libphonenumber-js checks a number against its metadata patterns with
 * `new RegExp('^(?:' + pattern + ')$').test(text)`, building a RegExp on every call: on a
 * million-row list that was a third of all validation time. Its modules call the helper
 * through its module object at call time, so giving that object a version that keeps each
 * compiled pattern changes nothing but the cost: a RegExp without flags holds no state
 * between tests, so the cached one answers exactly as a new one would. If a later release
 * moves the helper, this does nothing and numbers are judged as before, only slower.
 */
export function compilePhonePatternsOnce(): void {
	let helper: { default?: unknown };
	try {
		const root = dirname(require.resolve('libphonenumber-js/package.json'));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		helper = require(join(root, 'build', 'helpers', 'matchesEntirely.js')) as { default?: unknown };
	} catch {
		return;
	}
	const original = helper.default as ((text: string, pattern: string) => boolean) & {
		compiled?: true;
	};
	if (typeof original !== 'function' || original.compiled) return;
	const patterns = new Map<string, RegExp>();
	const matchesEntirely = (text: string | undefined, pattern: string): boolean => {
		let re = patterns.get(pattern);
		if (re === undefined) {
			re = new RegExp('^(?:' + pattern + ')$');
			patterns.set(pattern, re);
		}
		return re.test(text || '');
	};
	helper.default = Object.assign(matchesEntirely, { compiled: true as const });
}

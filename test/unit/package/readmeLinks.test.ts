import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Both READMEs are shown on npm's package pages and installed with the packages, where
 * nothing of the repository is around: a link or image must be an absolute URL (or an
 * anchor of the page itself), never a path into the repository.
 */
const ROOT = resolve(__dirname, '../../..');

function relativeLinks(markdown: string): string[] {
	const targets = [
		...markdown.matchAll(/\]\(([^)\s]+)[^)]*\)/g),
		...markdown.matchAll(/\b(?:src|href)="([^"]+)"/g),
	].map((m) => m[1]);
	return targets.filter((t) => !/^(https?:|mailto:|#)/.test(t));
}

describe("the packages' READMEs", () => {
	it.each(['README.md', 'worker/README.md'])(
		'%s links only to absolute URLs and its own anchors',
		(file) => {
			expect(relativeLinks(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
		},
	);

	it('a relative link or image is caught', () => {
		expect(
			relativeLinks(
				'see [x](docs/x.md) and ![y](img.png) <img src="z.png"> [ok](https://a.b/c) [top](#top)',
			),
		).toEqual(['docs/x.md', 'img.png', 'z.png']);
	});
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
/** Where the published READMEs point for files of this repository (npm and n8n show them). */
const REPO =
	/^https:\/\/(?:github\.com\/cloudtel\/n8n-nodes-cloudtel\/(?:blob|tree)\/main|raw\.githubusercontent\.com\/cloudtel\/n8n-nodes-cloudtel\/main)\/([^#?]*)(?:#(.*))?$/;
const DOCS = ['README.md', 'worker/README.md', 'sandbox/README.md', 'docs/internals.md'];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
	const seen = new Map<string, number>();
	const out = new Set<string>();
	let fence = false;
	for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
		if (line.startsWith('```')) fence = !fence;
		const h = !fence && /^#{1,6} (.+)$/.exec(line);
		if (!h) continue;
		const base = slug(h[1]);
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		out.add(n ? `${base}-${n}` : base);
	}
	return out;
}

/** Every link of a document outside its code blocks: its target and the line it is on. */
function links(file: string): { target: string; line: number }[] {
	const out: { target: string; line: number }[] = [];
	let fence = false;
	readFileSync(join(ROOT, file), 'utf8')
		.split('\n')
		.forEach((text, i) => {
			if (text.startsWith('```')) fence = !fence;
			if (fence) return;
			for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ target: m[1], line: i + 1 });
		});
	return out;
}

describe('the manuals: links that resolve, a worker README of a readable length', () => {
	for (const file of DOCS) {
		it(`${file}: every link to this repository names a file and heading that exist`, () => {
			const broken: string[] = [];
			for (const { target, line } of links(file)) {
				let path: string;
				let anchor: string | undefined;
				const repo = REPO.exec(target);
				if (repo) [, path, anchor] = repo;
				else if (/^[a-z]+:/.test(target)) continue;
				else {
					const [p, a] = target.split('#');
					path = p === '' ? file : join(dirname(file), p);
					anchor = a;
				}
				if (!existsSync(join(ROOT, path))) broken.push(`${file}:${line}: ${target}: no ${path}`);
				else if (anchor && path.endsWith('.md') && !anchors(path).has(anchor))
					broken.push(`${file}:${line}: ${target}: no heading #${anchor} in ${path}`);
			}
			expect(broken).toEqual([]);
		});
	}

	it('worker/README.md stays a manual a person reads: at most half the 1,036 lines it had (issue 44)', () => {
		const lines = readFileSync(join(ROOT, 'worker/README.md'), 'utf8').split('\n').length;
		expect(lines, 'move details to docs/internals.md and link them').toBeLessThanOrEqual(518);
	});
});

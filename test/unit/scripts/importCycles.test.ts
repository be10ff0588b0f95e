import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tempDir';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs scripts/import-cycles.mjs over a tree of files laid out as worker/src. */
function check(files: Record<string, string>) {
	const src = tempDir('cloudtel-cycles-');
	dirs.push(src);
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(src, path)), { recursive: true });
		writeFileSync(join(src, path), text);
	}
	const r = spawnSync(
		process.execPath,
		[join(__dirname, '../../../scripts/import-cycles.mjs'), `--src=${src}`],
		{ encoding: 'utf8' },
	);
	return { code: r.status, out: r.stdout + r.stderr };
}

describe('the import check of worker/src (npm run lint:cycles)', () => {
	it('passes a tree whose folders import only their layer and below', () => {
		const r = check({
			'cli.ts': "import { run } from './daemon/run';\n",
			'daemon/run.ts': "import { open } from '../storage/open';\nexport const run = open;\n",
			'storage/open.ts':
				"import { fail } from '../errors';\nimport type { Spec } from '../settings/spec';\nexport const open = (s: Spec) => fail(s);\n",
			'settings/spec.ts': "import '../errors';\nexport type Spec = string;\n",
			'errors.ts': 'export const fail = (s: string) => s;\n',
		});
		expect(r.out).toMatch(/no import cycle in worker\/src/);
		expect(r.code).toBe(0);
	});

	it('fails an import of a layer above, naming the files', () => {
		const r = check({
			'storage/store.ts': "import { log } from '../daemon/log';\n",
			'daemon/log.ts': 'export const log = 1;\n',
		});
		expect(r.out).toMatch(
			/storage imports daemon, a layer above it: storage\/store\.ts -> daemon\/log\.ts/,
		);
		expect(r.code).toBe(1);
	});

	it('fails a cycle between files of one folder, and one between folders of one layer', () => {
		const files = check({ 'campaign/a.ts': "import './b';\n", 'campaign/b.ts': "import './a';\n" });
		expect(files.out).toMatch(
			/import cycle between files: campaign\/(a|b)\.ts, campaign\/(a|b)\.ts/,
		);
		expect(files.code).toBe(1);
		const folders = check({
			'csv/a.ts': "import '../rows/b';\n",
			'rows/b.ts': "import '../csv/a2';\n",
			'csv/a2.ts': '',
		});
		expect(folders.out).toMatch(
			/import cycle between folders of worker\/src: (csv -> rows|rows -> csv)/,
		);
		expect(folders.code).toBe(1);
	});

	it('fails a folder that is in no layer', () => {
		const r = check({ 'newthing/x.ts': '' });
		expect(r.out).toMatch(/worker\/src\/newthing is in no layer/);
		expect(r.code).toBe(1);
	});
});

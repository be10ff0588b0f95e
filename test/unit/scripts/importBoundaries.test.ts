import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tempDir';

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs scripts/import-boundaries.mjs over a tree of files laid out as the repository. */
function check(files: Record<string, string>) {
	const root = tempDir('cloudtel-boundaries-');
	dirs.push(root);
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	const r = spawnSync(
		process.execPath,
		[join(__dirname, '../../../scripts/import-boundaries.mjs'), `--root=${root}`],
		{ encoding: 'utf8' },
	);
	return { code: r.status, out: r.stdout + r.stderr };
}

const GOOD = {
	'api/index.ts': "export * from './sid';\n",
	'api/sid.ts': "import type { X } from './types/x';\nexport const sid = (x: X) => x;\n",
	'api/types/x.ts': 'export type X = string;\n',
	'nodes/A/A.node.ts':
		"import { NodeOperationError } from 'n8n-workflow';\nimport { sid } from '../../api';\nimport { Cred } from '../../credentials/Cred.credentials';\nexport const a = [NodeOperationError, sid, Cred];\n",
	'credentials/Cred.credentials.ts':
		"import type { ICredentialType } from 'n8n-workflow';\nimport { sid } from '../api';\nexport class Cred { name = 'cred'; s = sid; }\nexport type T = ICredentialType;\n",
	'worker/src/cli.ts':
		"import { readFileSync } from 'node:fs';\nimport { sid } from '../../api';\nexport const cli = [readFileSync, sid];\n",
};

describe('the import boundaries of what ships inside n8n (npm run lint:boundaries)', () => {
	it('passes api/ on its own, the n8n side on n8n-workflow and api/, the worker on anything but the n8n side', () => {
		const r = check(GOOD);
		expect(r.out).toMatch(/keep their import boundaries/);
		expect(r.code).toBe(0);
	});

	it("fails api/ importing a package, a file outside itself, or using Node's globals, naming file and line", () => {
		const r = check({
			...GOOD,
			'api/sid.ts':
				"import { readFileSync } from 'node:fs';\nimport { a } from '../nodes/A/A.node';\nexport const sid = [readFileSync, a, Buffer.from('x'), process.env.X];\nconst ok = { process: 1 }.process;\n",
		});
		expect(r.out).toMatch(/api\/sid\.ts: imports "node:fs"; api\/ may import no package/);
		expect(r.out).toMatch(
			/api\/sid\.ts: imports "\.\.\/nodes\/A\/A\.node" \(nodes\/A\/A\.node\.ts\); api\/ may import only from api\//,
		);
		expect(r.out).toMatch(/api\/sid\.ts:3: uses Node's global "Buffer"/);
		expect(r.out).toMatch(/api\/sid\.ts:3: uses Node's global "process"/);
		expect(r.out).not.toMatch(/sid\.ts:4/);
		expect(r.code).toBe(1);
	});

	it('fails a node importing a devDependency or the worker, and the worker importing a credential', () => {
		const r = check({
			...GOOD,
			'nodes/A/A.node.ts':
				"import fc from 'fast-check';\nimport { cli } from '../../worker/src/cli';\nexport const a = [fc, cli];\n",
			'worker/src/run.ts':
				"import { Cred } from '../../credentials/Cred.credentials';\nexport const run = Cred;\n",
		});
		expect(r.out).toMatch(
			/nodes\/A\/A\.node\.ts: imports "fast-check"; nodes\/ may import no package but n8n-workflow/,
		);
		expect(r.out).toMatch(
			/nodes\/A\/A\.node\.ts: imports "\.\.\/\.\.\/worker\/src\/cli" \(worker\/src\/cli\.ts\)/,
		);
		expect(r.out).toMatch(
			/worker\/src\/run\.ts: imports "\.\.\/\.\.\/credentials\/Cred\.credentials" .*may import nothing from nodes\/ or credentials\//,
		);
		expect(r.code).toBe(1);
	});
});

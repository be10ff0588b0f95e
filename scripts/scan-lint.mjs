// `npm run lint:scan`: the lint half of n8n's verification scan, run with the scanner's own
// code: @n8n/scan-community-package (a dev dependency, pinned to the published scanner) and
// the @n8n/eslint-plugin-community-nodes version it pins (0.29.0, nested under it; the
// project's own lint uses a newer one). Its analyzePackage() is called as its scan calls it:
// - over the sources, with its SOURCE_FILE_PATTERNS (package.json and everything under
//   nodes/ and credentials/), as it lints the GitHub checkout a provenance points at;
// - over the unpacked `npm pack` tarball: every .js file in it (dist/api as well as the node
//   and credential files) and its package.json.
// Both with allowInlineConfig: false, so an eslint-disable comment silences nothing here.
// Any error fails the run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import glob from 'fast-glob';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

async function scan(label, dir, patterns) {
	const files = glob.sync(patterns, {
		cwd: dir,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const result = await analyzePackage(dir, patterns);
	if (result.details) console.log(result.details);
	console.log(
		`scan lint, ${label}: ${files.length} files, ${result.passed ? 'passed' : `FAILED (${result.message})`}`,
	);
	return result.passed;
}

let passed = await scan('sources', root, SOURCE_FILE_PATTERNS);

// The tarball: `npm pack` of the built package, unpacked as the scan unpacks it.
const work = mkdtempSync(join(tmpdir(), 'cloudtel-scan-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	execFileSync('tar', ['xzf', join(work, packed.filename), '-C', work]);
	passed =
		(await scan(`tarball ${packed.filename}`, join(work, 'package'), TARBALL_PATTERNS)) && passed;
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(passed ? 0 : 1);

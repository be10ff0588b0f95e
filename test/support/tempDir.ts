import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new folder for a test, under the run's own temp folder (runTempDir.ts), which goes
 * with everything in it when the run ends.
 */
export function tempDir(prefix = 'cloudtel-test-'): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

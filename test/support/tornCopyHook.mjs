// Preloaded (node --import) into a CLI that reads a ledger from a copy: after its first copy
// of the database, and before it copies the WAL, it waits for the test to write and checkpoint
// (CLOUDTEL_TEST_TORN_DIR: `copied` says it waits, `go` lets it on), so that the two files it
// copies are of two moments, as when a run's checkpoint falls between them.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.CLOUDTEL_TEST_TORN_DIR;
const copyFileSync = fs.copyFileSync;
let held = false;

fs.copyFileSync = (src, dest, mode) => {
	copyFileSync(src, dest, mode);
	if (held || !dir || String(src).endsWith('-wal')) return;
	held = true;
	fs.writeFileSync(path.join(dir, 'copied'), '');
	const pause = new Int32Array(new SharedArrayBuffer(4));
	const end = Date.now() + 30_000;
	while (!fs.existsSync(path.join(dir, 'go')) && Date.now() < end) Atomics.wait(pause, 0, 0, 5);
};

#!/usr/bin/env node
'use strict';
// Compiled code kept on disk (Node >= 22.1; older Nodes have no such call): a start, and a
// worker's first burst of replies, no longer pay for compiling every module again.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { enableCompileCache } = require('node:module');
if (typeof enableCompileCache === 'function') enableCompileCache();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../dist/worker/src/crashHandler.js').installCrashHandler();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../dist/worker/src/cli.js')
	.main(process.argv.slice(2))
	.then(
		(code) => {
			process.exitCode = code;
		},
		(error) => {
			process.stderr.write(`cloudtel: ${error instanceof Error ? error.message : String(error)}\n`);
			process.exitCode = 1;
		},
	);

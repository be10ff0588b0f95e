#!/usr/bin/env node
'use strict';
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

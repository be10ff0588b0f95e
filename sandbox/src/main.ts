import { runSandboxCli } from './cli';

// `node sandbox/dist/sandbox/src/main.js [flags]`: the sandbox without the worker's CLI.
runSandboxCli(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(
			`cloudtel sandbox: ${error instanceof Error ? error.message : String(error)}\n`,
		);
		process.exitCode = 1;
	},
);

// `npm run dev`: the sandbox and a real n8n with the CloudTel nodes loaded, a credential for
// the sandbox's demo account in place and an owner account to log in with. Runs until Ctrl-C.
// The n8n user folder (test/e2e/.n8n/dev, git-ignored) is kept between runs, so workflows
// built in the editor survive; the package and the credential are refreshed on every start.
// Environment: CLOUDTEL_N8N_PORT (default 5678), CLOUDTEL_SANDBOX_PORT (default 4010); a busy
// port falls back to a free one. CLOUDTEL_DEV_USER_FOLDER puts the n8n user folder elsewhere
// (the e2e test's own temp folder); CLOUDTEL_DEV_RELEASE=n8n-1 runs the oldest n8n line the
// package supports instead of the current one (a manifest folder, as CLOUDTEL_E2E_RELEASES).
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureN8n } from './lib/install.mjs';
import { N8n, freePort } from './lib/n8n.mjs';
import { assertBuilt, installPackage, packageName, panelOf, repoRoot } from './lib/package.mjs';
import { onInterrupt, setInterruptExitCode } from './lib/procs.mjs';
import { OWNER, setupOwner } from './lib/rest.mjs';
import { startSandbox } from './lib/sandbox.mjs';
import { devCredential } from './lib/workflows.mjs';

function portFree(port) {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function pickPort(wanted) {
	return (await portFree(wanted)) ? wanted : await freePort();
}

assertBuilt();
// Ctrl-C is how this command ends: a clean stop, exit code 0.
setInterruptExitCode(0);
const install = await ensureN8n({ release: process.env.CLOUDTEL_DEV_RELEASE || 'n8n' });
const sandbox = await startSandbox({
	port: await pickPort(Number(process.env.CLOUDTEL_SANDBOX_PORT ?? 4010)),
});
onInterrupt(() => sandbox.close());

const userFolder =
	process.env.CLOUDTEL_DEV_USER_FOLDER || join(repoRoot, 'test', 'e2e', '.n8n', 'dev');
mkdirSync(userFolder, { recursive: true });
const n8n = new N8n(install, userFolder, {
	extraEnv: { N8N_LOG_LEVEL: process.env.CLOUDTEL_N8N_LOG_LEVEL ?? 'info' },
});
await n8n.init();
n8n.port = await pickPort(Number(process.env.CLOUDTEL_N8N_PORT ?? 5678));
// init() drew the task broker's port from the free ones, and the port asked for is free
// too until n8n binds it: the broker must not take it ("Task Broker's port ... in use").
while (n8n.brokerPort === n8n.port) n8n.brokerPort = await freePort();
// A fresh copy of the built package on every start: `npm run dev` rebuilds it first.
rmSync(join(userFolder, '.n8n', 'nodes', 'node_modules', packageName), {
	recursive: true,
	force: true,
});
installPackage(userFolder, panelOf(install));
// Same id every run: the import replaces last run's credential with today's demo account,
// its property the Default Property SID, so a new CloudTel node can send as it is.
await n8n.importCredentials([devCredential(sandbox.url, sandbox.demo)]);

console.log(`Starting n8n ${install.version} (log: ${n8n.logFile})...`);
await n8n.start({ echo: true });
onInterrupt(() => n8n.stopServer());
let stopping = false;
onInterrupt(() => {
	stopping = true;
});
// If n8n dies on its own (from now on: also while the owner is set up), take the sandbox down
// too and say so, naming the signal when one killed it.
n8n.server?.once('exit', async (code, signal) => {
	if (stopping) return;
	console.error(`n8n exited (${code ?? signal}); see ${n8n.logFile}`);
	await sandbox.close();
	process.exit(1);
});
const ownerReady = await setupOwner(n8n.url).then(
	() => true,
	(error) => {
		console.warn(
			`Could not set up or log in the owner account (${error.message}); use the account you made.`,
		);
		return false;
	},
);

console.log(`
================================================================
 n8n with the CloudTel nodes:  ${n8n.url}
${ownerReady ? `   log in as   ${OWNER.email}\n   password    ${OWNER.password}\n` : ''}   credential  "CloudTel sandbox (demo account)" (type CloudTel API)

 Sandbox (the provider's emulator): ${sandbox.url}
   AccountSid  ${sandbox.demo.AccountSid}
   AuthToken   ${sandbox.demo.AuthToken}
   PropertySid ${sandbox.demo.PropertySid}  (the credential's Default Property SID)
   messages    ${sandbox.url}/_sandbox/messages
   callbacks   ${sandbox.url}/_sandbox/outbox

 Ctrl-C stops both.
================================================================
`);

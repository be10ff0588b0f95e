// `npm run test:e2e`: the n8n nodes inside real n8n releases, against the sandbox: every
// scenario on n8n 2.41.3, a smoke set on n8n 1.85.4, the oldest line the package supports
// (test/e2e/n8n and test/e2e/n8n-1). Installs (or reuses) each pinned n8n, loads the built
// package, starts that n8n once, saves a credential for the sandbox's demo account through
// its REST API, then runs the scenarios in it.
// Prints `N passed, N failed` last and exits non-zero on any failure. Needs `npm run build`
// first (npm test does it).
// Environment: CLOUDTEL_E2E_ONLY=name[,name] runs only those scenarios;
// CLOUDTEL_E2E_RELEASES=n8n-1 only those releases (manifest folders); CLOUDTEL_E2E_KEEP=1
// keeps the n8n user folders (logs, SQLite DBs) for a look afterwards.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureN8n, RELEASES } from './lib/install.mjs';
import { Editor } from './lib/editor.mjs';
import { N8n } from './lib/n8n.mjs';
import { assertBuilt, installPackage, panelOf } from './lib/package.mjs';
import { startSandbox } from './lib/sandbox.mjs';
import { section, summary, test } from './lib/report.mjs';
import { credential } from './lib/workflows.mjs';
import * as smoke from './scenarios/smoke.mjs';
import * as install from './scenarios/install.mjs';
import * as panel from './scenarios/panel.mjs';
import * as queueMode from './scenarios/queue-mode.mjs';
import * as sendBatch from './scenarios/send-batch.mjs';
import * as logins from './scenarios/logins.mjs';
import * as trigger from './scenarios/trigger.mjs';
import * as signedTrigger from './scenarios/signed-trigger.mjs';
import * as linkClicked from './scenarios/link-clicked.mjs';
import * as retries from './scenarios/safe-retries.mjs';
import * as everyOperation from './scenarios/every-operation.mjs';
import * as credentialTest from './scenarios/credential-test.mjs';
import * as failedItems from './scenarios/failed-items.mjs';
import * as devCredential from './scenarios/dev-credential.mjs';
import * as replyHandling from './scenarios/reply-handling.mjs';
import * as campaign from './scenarios/campaign.mjs';
import * as campaignHandOver from './scenarios/campaign-hand-over.mjs';
import * as campaignGuardrails from './scenarios/campaign-guardrails.mjs';
import * as campaignVariants from './scenarios/campaign-variants.mjs';
import * as npmRunDev from './scenarios/npm-run-dev.mjs';

// credentialTest after trigger: it asks the trigger's running n8n (ctx.server) when there is one.
const scenarios = {
	smoke,
	install,
	panel,
	queueMode,
	sendBatch,
	logins,
	trigger,
	signedTrigger,
	linkClicked,
	credentialTest,
	retries,
	failedItems,
	devCredential,
	replyHandling,
	campaign,
	campaignHandOver,
	campaignGuardrails,
	campaignVariants,
	npmRunDev,
	everyOperation,
};
// n8n 2.x runs every scenario; the oldest line (1.85) a smoke set: the install, the panel,
// every operation (logins and failed items run the operations the others do not), the trigger
// and the credential test, Send Batch with failed items, the campaign hand-over. Every check
// the smoke set leaves out runs on 2.x (see the README).
const SMOKE = new Set([
	'smoke',
	'install',
	'panel',
	'logins',
	'trigger',
	'credentialTest',
	'failedItems',
	'campaignHandOver',
	'everyOperation',
]);
const linesOf = (name) => (SMOKE.has(name) ? ['n8n', 'n8n-1'] : ['n8n']);
const only = process.env.CLOUDTEL_E2E_ONLY?.split(',').filter(Boolean);
const releases = process.env.CLOUDTEL_E2E_RELEASES?.split(',').filter(Boolean) ?? RELEASES;
const started = performance.now();
const root = mkdtempSync(join(tmpdir(), 'cloudtel-e2e-'));
let sandbox;
const instances = [];

async function runRelease(release) {
	section(`setup (${release})`);
	let ctx;
	let label = release;
	const releaseRoot = join(root, release);
	mkdirSync(releaseRoot, { recursive: true });
	const ready = await test(
		`${release}: n8n installed and started, package and credential in place`,
		async () => {
			assertBuilt();
			const install = await installs.get(release);
			label = `n8n ${install.version}`;
			console.log(
				`       n8n ${install.version} ${install.cached ? 'from cache' : 'installed'}: ${install.dir}`,
			);
			// The one n8n of this line every scenario drives, unless it needs a process of its own.
			const server = await new N8n(install, join(releaseRoot, 'n8n')).init();
			instances.push(server);
			installPackage(server.userFolder, panelOf(install));
			await server.start();
			const n8n = await new Editor(server).login();
			const cred = credential('cloudtelSandbox1', sandbox.url, sandbox.demo);
			await n8n.importCredentials([cred]);
			let cli;
			ctx = {
				release,
				install,
				sandbox,
				n8n,
				root: releaseRoot,
				credential: { id: cred.id, name: cred.name },
				/**
				 * `n8n execute` beside the running n8n (a scenario that kills a run midway): on the
				 * same user folder, so it runs what was saved through the REST API, with ports of
				 * its own (its task broker).
				 */
				cli: async () => {
					cli ??= await new N8n(install, server.userFolder).init();
					return cli;
				},
				// Further n8n instances (queue mode, the panel's) are registered here to be stopped.
				track: (instance) => instances.push(instance),
			};
		},
		{ timeoutMs: 85 * 60_000 },
	);
	if (!ready) return;
	// Every check names the release it ran on.
	const check = (name, fn, options) => test(`[${label}] ${name}`, fn, options);
	for (const [name, scenario] of Object.entries(scenarios)) {
		if (only && !only.includes(name)) continue;
		if (!linesOf(name).includes(release)) continue;
		section(`${scenario.title} (${label})`);
		try {
			await scenario.run(ctx, check);
		} catch (error) {
			await check(`${name}: scenario ran to its end`, () => {
				throw error;
			});
		}
	}
}

// Every release's install starts at once: on an empty cache the 1.x install (about 5 min)
// then overlaps the 2.x one and its scenarios instead of following them.
const installs = new Map(releases.map((release) => [release, ensureN8n({ release })]));
// Each is awaited, and its failure reported, by its own release's setup check.
for (const install of installs.values()) install.catch(() => {});

try {
	section('setup');
	const up = await test('sandbox up', async () => {
		// Receipts only when a scenario fires one (POST /_sandbox/receipts), never on a timer.
		sandbox = await startSandbox({ receiptDelayMs: 3_600_000 });
	});
	if (up) {
		// Each line runs as soon as its install is ready: on an empty cache the 1.x smoke set
		// runs while 2.x is still installing.
		const ready = new Map(
			releases.map((r) => [
				r,
				installs.get(r).then(
					() => r,
					() => r,
				),
			]),
		);
		while (ready.size > 0) {
			const release = await Promise.race(ready.values());
			ready.delete(release);
			await runRelease(release);
			// One release's servers are stopped before the next starts: two cores are shared.
			for (const instance of instances.splice(0)) await instance.stopServer().catch(() => {});
		}
	}
} finally {
	for (const instance of instances) await instance.stopServer().catch(() => {});
	await sandbox?.close().catch(() => {});
	if (process.env.CLOUDTEL_E2E_KEEP) console.log(`\nn8n user folders kept in ${root}`);
	else rmSync(root, { recursive: true, force: true });
}

console.log(`\ne2e run took ${((performance.now() - started) / 1000).toFixed(0)}s`);
const failures = summary();
process.exit(failures ? 1 : 0);

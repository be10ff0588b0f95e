// The package installed and updated from n8n's own Community Nodes panel: its REST endpoint
// (POST /rest/community-packages as the owner, then PATCH to update), against a local npm
// registry (verdaccio, lib/registry.mjs) to which the test publishes the packed tarball as
// 0.1.0 and then as 0.1.1. n8n runs npm itself, as for any user; the only thing changed in
// its process is the licence gate on custom registries (lib/customRegistryLicence.mjs).
// (The panel's list, GET /rest/community-packages, is not read: it asks api.n8n.io about
// updates and took 70 s here, offline; POST and PATCH answer with what n8n saved.)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { N8n } from '../lib/n8n.mjs';
import { installedPackages, nodeType, packageName, packTarball } from '../lib/package.mjs';
import { retagTarball, startRegistry } from '../lib/registry.mjs';
import { setupOwner, testCredential } from '../lib/rest.mjs';
import { CREDENTIAL_TYPE } from '../lib/workflows.mjs';

export const title =
	"Community Nodes panel: install and update from a registry through n8n's REST endpoint";

const preload = join(
	dirname(fileURLToPath(import.meta.url)),
	'..',
	'lib',
	'customRegistryLicence.mjs',
);

const rest = (server, cookie, method, body) =>
	restCall(server, cookie, method, '/rest/community-packages', body);

async function restCall(server, cookie, method, path, body) {
	const started = performance.now();
	const res = await fetch(`${server.url}${path}`, {
		method,
		headers: { 'content-type': 'application/json', 'browser-id': 'cloudtel-e2e', cookie },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	console.log(
		`       ${method} ${path}: HTTP ${res.status} in ${((performance.now() - started) / 1000).toFixed(1)}s`,
	);
	if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
	const parsed = JSON.parse(text);
	return parsed.data ?? parsed;
}

export async function run(ctx, test) {
	const dir = join(ctx.root, 'panel');
	mkdirSync(dir, { recursive: true });
	const base = packTarball();
	const version = JSON.parse(
		readFileSync(
			join(ctx.n8n.userFolder, '.n8n', 'nodes', 'node_modules', packageName, 'package.json'),
			'utf8',
		),
	).version;
	const [major, minor, patch] = version.split('.').map(Number);
	const next = `${major}.${minor}.${patch + 1}`;
	let registry;
	let server;
	let cookie;
	const nodesDir = () => join(server.userFolder, '.n8n', 'nodes');
	const installedVersion = () =>
		JSON.parse(readFileSync(join(nodesDir(), 'node_modules', packageName, 'package.json'), 'utf8'))
			.version;

	try {
		const up = await test(
			`a local registry holds ${packageName}@${version}; n8n starts with it as its community packages registry`,
			async () => {
				registry = await startRegistry(join(dir, 'registry'), ctx.install.nodeBin);
				await registry.publish(base);
				const meta = await (await fetch(`${registry.url}/${packageName}`)).json();
				assert.deepEqual(Object.keys(meta.versions), [version]);
				server = await new N8n(ctx.install, join(dir, 'n8n'), {
					extraEnv: {
						N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
						N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
						N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
						NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`,
					},
				}).init();
				ctx.track(server);
				await server.start();
				cookie = await setupOwner(server.url);
			},
			{ timeoutMs: 300_000 },
		);
		if (!up) return;

		const installed = await test(
			`POST /rest/community-packages installs ${version}: loaded, the only package in ~/.n8n/nodes`,
			async () => {
				const pkg = await rest(server, cookie, 'POST', { name: packageName });
				assert.equal(pkg.packageName, packageName);
				assert.equal(pkg.installedVersion, version);
				assert.deepEqual(pkg.installedNodes.map((n) => n.type).sort(), [
					nodeType('cloudTel'),
					nodeType('cloudTelCampaign'),
					nodeType('cloudTelTrigger'),
				]);
				assert.equal(installedVersion(), version);
				assert.deepEqual(installedPackages(nodesDir()), [packageName]);
			},
			{ timeoutMs: 180_000 },
		);
		if (!installed) return;

		await test("the installed credential passes n8n's credential test against the sandbox", async () => {
			const data = {
				baseUrl: ctx.sandbox.url,
				accountSid: ctx.sandbox.demo.AccountSid,
				authToken: ctx.sandbox.demo.AuthToken,
			};
			// Created as the editor creates one: n8n tests only credentials that exist.
			const created = await restCall(server, cookie, 'POST', '/rest/credentials', {
				name: 'CloudTel (panel)',
				type: CREDENTIAL_TYPE,
				data,
			});
			const result = await testCredential(server.url, cookie, {
				id: created.id,
				name: created.name,
				type: CREDENTIAL_TYPE,
				data,
			});
			assert.equal(result.status, 'OK', JSON.stringify(result));
		});

		await test(
			`${next} published; PATCH /rest/community-packages updates to it`,
			async () => {
				await registry.publish(retagTarball(base, next, dir));
				const pkg = await rest(server, cookie, 'PATCH', { name: packageName, version: next });
				assert.equal(pkg.installedVersion, next);
				assert.equal(installedVersion(), next);
				assert.deepEqual(installedPackages(nodesDir()), [packageName]);
				assert.equal(
					existsSync(join(nodesDir(), 'node_modules', packageName, packageJsonMain())),
					true,
				);
			},
			{ timeoutMs: 180_000 },
		);
	} finally {
		await server?.stopServer().catch(() => {});
		await registry?.close().catch(() => {});
	}
}

/** A file n8n loads from the package: the CloudTel node. */
function packageJsonMain() {
	return join('dist', 'nodes', 'CloudTel', 'CloudTel.node.js');
}

// `npm run screenshots`: the README's pictures of the CloudTel node, taken in a real n8n 2.x
// (started as `npm run dev` starts it: sandbox, the dev credential, an owner account) by
// Debian's Chromium, headless, through playwright-core (no downloaded browser). Writes
// docs/images/send-batch-panel.png (the Send Batch panel) and docs/images/error-item.png
// (a failed item on the error output, beside the input it came from), and
// docs/images/campaign-workflow.png (the shipped campaign template on the canvas, after its
// Start part handed 2,500 contacts to a real cloudtel worker: one item out).
// CLOUDTEL_SCREENSHOTS_ONLY=campaign takes only that one.
// Environment: CLOUDTEL_CHROMIUM names another Chromium; CLOUDTEL_SCREENSHOTS_DEBUG=1 keeps
// a picture of the page at each step in docs/images/debug-*.png.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ensureN8n } from './lib/install.mjs';
import { N8n } from './lib/n8n.mjs';
import { assertBuilt, installPackage, panelOf, repoRoot } from './lib/package.mjs';
import { onInterrupt } from './lib/procs.mjs';
import { OWNER, setupOwner } from './lib/rest.mjs';
import { startSandbox } from './lib/sandbox.mjs';
import {
	chain,
	cloudTel,
	devCredential,
	items,
	manualTrigger,
	workflow,
} from './lib/workflows.mjs';
import { startCloudtelWorker, workerCredential } from './lib/cloudtelWorker.mjs';

const CHROMIUM = process.env.CLOUDTEL_CHROMIUM || '/usr/bin/chromium';
const ARGS = [
	'--no-sandbox',
	'--headless',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const out = join(repoRoot, 'docs', 'images');
const debug = Boolean(process.env.CLOUDTEL_SCREENSHOTS_DEBUG);
const only = process.env.CLOUDTEL_SCREENSHOTS_ONLY;

assertBuilt();
mkdirSync(out, { recursive: true });
const install = await ensureN8n({ release: 'n8n' });
const sandbox = await startSandbox();
const userFolder = mkdtempSync(join(tmpdir(), 'cloudtel-screenshots-'));
const n8n = await new N8n(install, userFolder).init();
let browser;
let worker;
const cleanup = async () => {
	await browser?.close().catch(() => {});
	await worker?.stop().catch(() => {});
	await n8n.stopServer().catch(() => {});
	await sandbox.close().catch(() => {});
	rmSync(userFolder, { recursive: true, force: true });
};
onInterrupt(cleanup);

try {
	installPackage(n8n.userFolder, panelOf(install));
	const credential = devCredential(sandbox.url, sandbox.demo);
	await n8n.importCredentials([credential]);
	const contacts = [
		{ customerId: 'C-1', phone: '+61412000101', name: 'Ada' },
		{ customerId: 'C-2', phone: '0412 345 678', name: 'Grace' },
		{ customerId: 'C-3', phone: '+61412000103', name: 'Alan' },
	];
	const send = cloudTel(
		'Send Batch',
		{
			resource: 'message',
			operation: 'sendBatch',
			from: 'Bistro',
			to: '={{ $json.phone }}',
			text: '=Hi {{ $json.name }}, your table is ready.',
			options: {
				DeliveryReceiptWebhookMethod: 'POST',
				DeliveryReceiptWebhookUri: 'https://n8n.example.com/webhook/receipts/cloudtel',
				ExternalId: '={{ $json.customerId }}',
			},
		},
		{ credential: { id: credential.id, name: credential.name }, onError: 'continueErrorOutput' },
	);
	const trigger = manualTrigger('Start');
	const contactsNode = items('Contacts', contacts);
	const wf = workflow(
		'CloudTel: Send Batch with an error output',
		[trigger, contactsNode, send],
		chain(trigger, contactsNode, send),
	);
	await n8n.importWorkflow(wf);
	const campaignWf = await campaignTemplate(credential);
	await n8n.start();
	await setupOwner(n8n.url);

	browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
	const page = await (
		await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 })
	).newPage();
	let step = 0;
	const snap = async (what) =>
		debug && (await page.screenshot({ path: join(out, `debug-${++step}-${what}.png`) }));

	// Signed in as a user would: the session cookie is bound to the browser that signed in.
	await page.goto(`${n8n.url}/signin`);
	await page.locator('input[type="email"]').first().fill(OWNER.email, { timeout: 120_000 });
	await page.locator('input[type="password"]').first().fill(OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });

	await campaignPicture(page, campaignWf, snap);
	if (only !== 'campaign') {
		await page.goto(`${n8n.url}/workflow/${wf.id}`);
		const node = page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Send Batch' });
		await node.waitFor({ timeout: 120_000 });
		await snap('canvas');
		await page.locator('[data-test-id="execute-workflow-button"]').click();
		await page
			.locator('[data-test-id="canvas-node-status-success"]')
			.first()
			.waitFor({ timeout: 120_000 });
		await node.dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor();
		await page.getByText('Success Branch (2 items)').waitFor({ timeout: 60_000 });
		// The "Workflow executed successfully" toast would sit over the output.
		for (const close of await page.locator('.el-notification__closeBtn').all())
			await close.click().catch(() => {});
		await page
			.locator('.el-notification')
			.first()
			.waitFor({ state: 'hidden', timeout: 15_000 })
			.catch(() => {});
		await snap('panel');
		await page.screenshot({ path: join(out, 'send-batch-panel.png') });
		console.log(`wrote ${join(out, 'send-batch-panel.png')}`);

		// The error item: the Error Branch of the output, as JSON.
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText(/Error Branch \(1 item\)/).click();
		await output.locator('[data-test-id="radio-button-json"]').click();
		await output.getByText('INVALID_PHONENUMBER_FORMAT').first().waitFor({ timeout: 30_000 });
		await snap('error');
		const box = await output.boundingBox();
		await page.screenshot({
			path: join(out, 'error-item.png'),
			clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 700) },
		});
		console.log(`wrote ${join(out, 'error-item.png')}`);
	}
} finally {
	await cleanup();
}

/** The shipped template, with the dev credentials, a worker, and 2,500 contacts instead of three. */
async function campaignTemplate(credential) {
	const dir = join(userFolder, 'worker');
	mkdirSync(dir, { recursive: true });
	worker = await startCloudtelWorker({ dir, sandbox });
	const workerCred = workerCredential('cloudtelWorkerDev', worker, 'CloudTel worker (local)');
	await n8n.importCredentials([workerCred]);
	const template = JSON.parse(
		readFileSync(join(repoRoot, 'examples', 'n8n-campaign.workflow.json'), 'utf8'),
	);
	for (const node of template.nodes) {
		if (node.name === 'Contacts') {
			node.parameters.jsCode = `// Your contacts, one item each: replace this node with your sheet or CRM.\nreturn Array.from({ length: 2500 }, (_, i) => ({ json: { phone: '+61412' + String(i).padStart(6, '0'), first_name: 'Contact ' + i } }));`;
		}
		if (node.name === 'CloudTel Campaign') {
			node.parameters.propertySid = credential.data.defaultPropertySid;
			node.parameters.campaignName = `spring-sale-${Date.now().toString(36)}`;
			node.parameters.options.events = node.parameters.options.events.replace(
				'https://n8n.example.com',
				n8n.url,
			);
			node.credentials = { cloudTelWorkerApi: { id: workerCred.id, name: workerCred.name } };
		}
	}
	const wf = workflow(template.name, template.nodes, template.connections);
	await n8n.importWorkflow(wf);
	return wf;
}

/** The canvas after a manual run of the template's Start part: 2,500 items in, one out. */
async function campaignPicture(page, wf, snap) {
	await page.goto(`${n8n.url}/workflow/${wf.id}`);
	const campaign = page
		.locator('[data-test-id="canvas-node"]')
		.filter({ hasText: 'CloudTel Campaign' });
	await campaign.waitFor({ timeout: 120_000 });
	// Two triggers: run from the Manual Trigger, with the button it shows on hover.
	const start = page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Start' }).first();
	await start.hover();
	await page.locator('[data-test-id="execute-workflow-button-Start"]').click();
	await page.waitForTimeout(3000);
	await snap('campaign-run');
	await campaign
		.locator('[data-test-id="canvas-node-status-success"]')
		.waitFor({ timeout: 180_000 });
	for (const close of await page.locator('.el-notification__closeBtn').all())
		await close.click().catch(() => {});
	await page
		.locator('.el-notification')
		.first()
		.waitFor({ state: 'hidden', timeout: 15_000 })
		.catch(() => {});
	// Fit the whole workflow (both parts and the note) in view.
	await page
		.locator('[data-test-id="zoom-to-fit"]')
		.click()
		.catch(() => page.keyboard.press('1'));
	await page.waitForTimeout(1000);
	await snap('campaign');
	await page.screenshot({ path: join(out, 'campaign-workflow.png') });
	console.log(`wrote ${join(out, 'campaign-workflow.png')}`);
}

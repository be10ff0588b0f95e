// The provider's emulator, started in the harness's own process from its build output, and
// small clients for its /v2 API (as the demo account) and its /_sandbox control API.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './package.mjs';

const entry = join(repoRoot, 'sandbox', 'dist', 'sandbox', 'src', 'index.js');

export async function startSandbox(options = {}) {
	if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
	const { startSandbox: start } = createRequire(import.meta.url)(entry);
	const sandbox = await start({ port: 0, host: '127.0.0.1', logger: false, ...options });
	return Object.assign(sandbox, {
		control: control(sandbox.url),
		api: api(sandbox.url, sandbox.demo),
	});
}

async function call(url, init) {
	const res = await fetch(url, init);
	const text = await res.text();
	let body = text;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, body, headers: res.headers };
}

function control(base) {
	const json = (method, path, body) =>
		call(`${base}/_sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	return {
		// Every page: the control API answers 1000 messages at a time.
		messages: async (query = {}) => {
			const out = [];
			let token = '';
			do {
				const page = (
					await json(
						'GET',
						`/messages?${new URLSearchParams({ ...query, ...(token ? { PageToken: token } : {}) })}`,
					)
				).body;
				out.push(...page.Messages);
				token = page.NextPageToken;
			} while (token);
			return out;
		},
		outbox: async () => (await json('GET', '/outbox')).body,
		property: async (sid) => (await json('GET', `/properties/${sid}`)).body,
		reply: (From, To, Text) => json('POST', '/replies', { From, To, Text }),
		receipt: (MessageSid, Status) => json('POST', '/receipts', { MessageSid, Status }),
		clock: (AdvanceSeconds) => json('POST', '/clock', { AdvanceSeconds }),
		numbers: (body) => json('POST', '/numbers', body),
		account: (body = {}) => json('POST', '/accounts', body),
		addProperty: (accountSid, body = {}) =>
			json('POST', `/accounts/${accountSid}/properties`, body),
	};
}

/** The provider API as the demo account: what the scenarios use to check state independently of n8n. */
function api(base, demo) {
	const auth = `Basic ${Buffer.from(`${demo.AccountSid}:${demo.AuthToken}`).toString('base64')}`;
	return (method, path, body, headers = {}) =>
		call(`${base}${path}`, {
			method,
			headers: {
				authorization: auth,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
}

// The REST side of a running n8n: owner set-up (the account a user logs in with), an API key,
// and the public API's executions list, which is how scenarios see what webhooks started.
const BROWSER_ID = 'cloudtel-e2e';

export const OWNER = {
	email: 'owner@cloudtel.test',
	firstName: 'Cloud',
	lastName: 'Tel',
	password: 'CloudTel-dev-1',
};

function cookieOf(res) {
	const set = res.headers.getSetCookie?.() ?? [];
	return set.map((c) => c.split(';')[0]).join('; ');
}

async function json(res, what) {
	const text = await res.text();
	if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 500)}`);
	return text ? JSON.parse(text) : undefined;
}

/** Sets up the instance owner (first start only) and returns a logged-in session cookie. */
export async function setupOwner(baseUrl, owner = OWNER) {
	const headers = { 'content-type': 'application/json', 'browser-id': BROWSER_ID };
	// Asked first rather than tried: n8n logs a refused set-up as an error line, which
	// `npm run dev` would show on every start on a reused user folder.
	const settings = await json(await fetch(`${baseUrl}/rest/settings`, { headers }), 'settings');
	let res;
	if (settings.data.userManagement.showSetupOnFirstLoad) {
		res = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers,
			body: JSON.stringify(owner),
		});
	} else {
		res = await fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
		});
	}
	await json(res, 'owner set-up / login');
	return cookieOf(res);
}

/**
 * Creates a public-API key with every scope the owner may hold; n8n 1.85 has no key scopes
 * (every key may do everything), and answers 404 for the list of them.
 */
export async function createApiKey(baseUrl, cookie) {
	const headers = { 'content-type': 'application/json', 'browser-id': BROWSER_ID, cookie };
	const listed = await fetch(`${baseUrl}/rest/api-keys/scopes`, { headers });
	const scopes = listed.status === 404 ? undefined : (await json(listed, 'api key scopes')).data;
	if (listed.status === 404) await listed.text();
	const body = { label: `e2e ${Date.now()}`, ...(scopes ? { scopes } : {}), expiresAt: null };
	const created = await json(
		await fetch(`${baseUrl}/rest/api-keys`, {
			method: 'POST',
			headers,
			body: JSON.stringify(body),
		}),
		'create api key',
	);
	return created.data.rawApiKey;
}

export function publicApi(baseUrl, apiKey) {
	const get = async (path) =>
		json(
			await fetch(`${baseUrl}/api/v1${path}`, { headers: { 'x-n8n-api-key': apiKey } }),
			`GET /api/v1${path}`,
		);
	const post = async (path, body) =>
		json(
			await fetch(`${baseUrl}/api/v1${path}`, {
				method: 'POST',
				headers: { 'x-n8n-api-key': apiKey, 'content-type': 'application/json' },
				body: JSON.stringify(body ?? {}),
			}),
			`POST /api/v1${path}`,
		);
	return {
		get,
		post,
		/** Every execution of a workflow, newest first, with its run data. */
		async executions(workflowId) {
			const out = [];
			let cursor;
			do {
				const query = new URLSearchParams({
					workflowId,
					includeData: 'true',
					limit: '100',
					...(cursor ? { cursor } : {}),
				});
				const page = await get(`/executions?${query}`);
				out.push(...page.data);
				cursor = page.nextCursor;
			} while (cursor);
			return out;
		},
		workflow: (id) => get(`/workflows/${id}`),
	};
}

/** Runs n8n's own credential test (the editor's "Retry"/"Save" check) for credential data. */
export async function testCredential(baseUrl, cookie, { id, name, type, data }) {
	const headers = { 'content-type': 'application/json', 'browser-id': BROWSER_ID, cookie };
	const body = JSON.stringify({ credentials: { id, name, type, data } });
	return (
		await json(
			await fetch(`${baseUrl}/rest/credentials/test`, { method: 'POST', headers, body }),
			'credential test',
		)
	).data;
}

/**
 * Every message the sandbox holds that matches the query, following NextPageToken: the
 * control API answers a page (1000 by default), and a test that checks what was sent
 * must see all of it.
 */
export async function allSandboxMessages<T = any>(
	baseUrl: string,
	query: Record<string, string> = {},
): Promise<T[]> {
	const out: T[] = [];
	let token = '';
	do {
		const q = new URLSearchParams({
			...query,
			Results_Count: '1000',
			...(token ? { PageToken: token } : {}),
		});
		const res = await fetch(`${baseUrl}/_sandbox/messages?${q}`);
		const body = (await res.json()) as { Messages: T[]; NextPageToken: string };
		if (!res.ok) throw new Error(`GET /_sandbox/messages: ${res.status} ${JSON.stringify(body)}`);
		out.push(...body.Messages);
		token = body.NextPageToken;
	} while (token);
	return out;
}

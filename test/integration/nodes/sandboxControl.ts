// The sandbox's control API (contract.md), for setting up and checking state in tests.
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src';
import type { Credentials } from './fakeN8n';

/** A sandbox started before a test file's tests and closed after them: `use` gets it before the first test. */
export function sandboxForFile(use: (sb: RunningSandbox) => unknown): void {
	let sb: RunningSandbox | undefined;
	beforeAll(async () => {
		sb = await startSandbox({ port: 0 });
		use(sb);
	});
	afterAll(async () => sb?.close());
}

export function credentialsFor(sb: RunningSandbox, authToken = sb.demo.AuthToken): Credentials {
	return { baseUrl: sb.url, accountSid: sb.demo.AccountSid, authToken };
}

export async function control<T = Record<string, unknown>>(
	sb: RunningSandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${sb.url}/_sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(`${method} /_sandbox${path} answered ${response.status}: ${text}`);
	return (text ? JSON.parse(text) : {}) as T;
}

/** Polls until `check` returns something truthy: callbacks arrive asynchronously. */
export async function eventually<T>(
	check: () => Promise<T | undefined> | T | undefined,
	timeoutMs = 5000,
): Promise<T> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > until) throw new Error('Timed out waiting');
		await new Promise((r) => setTimeout(r, 50));
	}
}

import { basicAuthorization } from '../../api';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/src';
import { allSandboxMessages } from './sandboxMessages';

export interface Answer<T = any> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

export interface CallOptions {
	/** Overrides the demo account's Basic header; null sends none. */
	auth?: string | null;
	contentType?: string | null;
	/** A raw body, sent as is. */
	raw?: string;
	headers?: Record<string, string>;
}

/** A sandbox for one test file, with a tiny client that speaks its wire format. */
export class SandboxClient {
	constructor(readonly sandbox: RunningSandbox) {}

	static async start(options: SandboxOptions = {}): Promise<SandboxClient> {
		return new SandboxClient(await startSandbox({ port: 0, ...options }));
	}

	get demo() {
		return this.sandbox.demo;
	}

	get url() {
		return this.sandbox.url;
	}

	authFor(accountSid: string, token: string): string {
		return basicAuthorization(accountSid, token);
	}

	async call<T = any>(
		method: string,
		path: string,
		body?: unknown,
		options: CallOptions = {},
	): Promise<Answer<T>> {
		const headers: Record<string, string> = { ...options.headers };
		const auth =
			options.auth === undefined
				? basicAuthorization(this.demo.AccountSid, this.demo.AuthToken)
				: options.auth;
		if (auth !== null) headers.authorization = auth;
		const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
		const contentType =
			options.contentType === undefined
				? method === 'PATCH'
					? 'application/merge-patch+json'
					: 'application/json'
				: options.contentType;
		if (payload !== undefined && contentType !== null) headers['content-type'] = contentType;
		const response = await fetch(this.url + path, { method, headers, body: payload });
		const text = await response.text();
		let parsed: unknown = undefined;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			parsed = undefined;
		}
		return { status: response.status, headers: response.headers, body: parsed as T, text };
	}

	/** A fresh account with one property, for isolation tests. */
	async newAccount(
		smsEnabled = true,
	): Promise<{ AccountSid: string; AuthToken: string; PropertySid: string; auth: string }> {
		const account = (
			await this.call('POST', '/_sandbox/accounts', { SmsEnabled: smsEnabled }, { auth: null })
		).body;
		const property = (
			await this.call(
				'POST',
				`/_sandbox/accounts/${account.AccountSid}/properties`,
				{},
				{ auth: null },
			)
		).body;
		return {
			...account,
			PropertySid: property.PropertySid,
			auth: basicAuthorization(account.AccountSid, account.AuthToken),
		};
	}

	/** Every message of the demo account (or of the query), all pages of them. */
	async messages(query = `?AccountSid=${this.demo.AccountSid}`): Promise<any[]> {
		return allSandboxMessages(this.url, Object.fromEntries(new URLSearchParams(query)));
	}

	async outbox(): Promise<{ Callbacks: any[]; Sms: any[]; Emails: any[] }> {
		return (await this.call('GET', '/_sandbox/outbox', undefined, { auth: null })).body;
	}

	async advance(seconds: number): Promise<void> {
		await this.call('POST', '/_sandbox/clock', { AdvanceSeconds: seconds }, { auth: null });
	}

	async now(): Promise<number> {
		return (await this.call('GET', '/_sandbox/clock', undefined, { auth: null })).body.Now;
	}

	close(): Promise<void> {
		return this.sandbox.close();
	}
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
	check: () => Promise<T | undefined> | T | undefined,
	timeoutMs = 5000,
	what = 'condition',
): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value as T;
		if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 25));
	}
}

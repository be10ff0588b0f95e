/** Start-up options; the CLI flags of contract.md map onto these one for one. */
export interface SandboxOptions {
	/** 0 picks a free port. Default 4010. */
	port?: number;
	/** Default 127.0.0.1: the sandbox has an unauthenticated control API. */
	host?: string;
	/** Added to every /v2 answer. */
	latencyMs?: number;
	/** Share of /v2 requests answered 500, 0..1. */
	failRate?: number;
	/** Messages per second per account; above it, 429 with Retry-After. 0 = none. */
	rateLimit?: number;
	/** Delay between a message being sent and its delivery receipt. Default 200. */
	receiptDelayMs?: number;
	/** Pino logging to stdout. Default false for tests. */
	logger?: boolean;
	/** Largest accepted request body. Default 5 MiB (a 1000-message batch fits). */
	bodyLimit?: number;
}

export interface DemoAccount {
	AccountSid: string;
	AuthToken: string;
	PropertySid: string;
}

export interface RunningSandbox {
	/** http://host:port, no trailing slash. */
	url: string;
	port: number;
	/** An account and a property, SMS-enabled and Active, ready to use. */
	demo: DemoAccount;
	close(): Promise<void>;
}

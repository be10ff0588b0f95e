import { afterAll, afterEach } from 'vitest';

/** What a test started and must stop: each a function that stops one thing. */
export type Cleanup = (() => Promise<unknown>)[];

/** A test file's cleanup list, run after each test, last pushed first. Call at the top level of a test file. */
export function cleanupAfterEach(): Cleanup {
	const cleanup: Cleanup = [];
	afterEach(async () => {
		for (const c of cleanup.splice(0).reverse()) await c();
	});
	return cleanup;
}

/** A test file's cleanup list, run once after all its tests (what a `beforeAll` started), last pushed first. */
export function cleanupAfterAll(): Cleanup {
	const cleanup: Cleanup = [];
	afterAll(async () => {
		for (const c of cleanup.splice(0).reverse()) await c();
	});
	return cleanup;
}

/** Waits for `check` to give a value (not undefined or false), looking every 50 ms; throws naming `what` after `timeoutMs`. */
export async function until<T>(
	check: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 15_000,
	what = 'a condition',
): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value as T;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

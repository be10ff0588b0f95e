/** An outbound.allow entry as hostname and port, or undefined when it is not `host` or `host:port`. */
export function allowEntry(entry: string): { hostname: string; port?: string } | undefined {
	try {
		const u = new URL(`http://${entry.trim()}`);
		if (u.username || u.password || u.pathname !== '/' || u.search || u.hash || `${u.host}` === '')
			return undefined;
		const explicitPort = /:(\d+)$/.exec(entry.trim())?.[1];
		return {
			hostname: u.hostname,
			...(explicitPort !== undefined ? { port: String(Number(explicitPort)) } : {}),
		};
	} catch {
		return undefined;
	}
}

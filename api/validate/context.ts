/** What a validator needs from the world: only the time, so rules stay pure. */
export interface ValidationContext {
	/** Unix seconds. */
	now: number;
}

export function systemContext(): ValidationContext {
	return { now: Math.floor(Date.now() / 1000) };
}

/** Stops the run with a message for a person and a non-zero exit; never loses accepted work. */
export class FatalError extends Error {
	constructor(
		message: string,
		readonly exitCode = 1,
		/** `cause`: what went wrong underneath, for code that tells a store's fault from a mistake. */
		options?: ErrorOptions,
	) {
		super(message, options);
	}
}

/** Bad flags or arguments: exit 2, with the usage hint. */
export class UsageError extends FatalError {
	constructor(message: string) {
		super(message, 2);
	}
}

/** Exit codes of `cloudtel campaign run` (and the demo). */
export const ExitCodes = {
	/** Every row is accounted for: accepted, rejected by the provider, or skipped with a reason. */
	Finished: 0,
	Fatal: 1,
	Usage: 2,
	/** Finished, but some rows are uncertain: listed, and sent again only with --resend-uncertain. */
	Uncertain: 3,
	/** Stopped before the end: paused, cancelled, or waiting for its --schedule. */
	Stopped: 4,
	Interrupted: 130,
} as const;

/** The API's prefix on the worker's port. */
export const WORKER_API_PREFIX = '/api';
/** A token shorter than this is refused by the worker's config check. */
export const MIN_API_TOKEN_LENGTH = 16;

/** The paths of the campaign API, for clients: the name is path-encoded. */
export const workerApiPaths = {
	openapi: () => `${WORKER_API_PREFIX}/openapi.json`,
	campaigns: () => `${WORKER_API_PREFIX}/campaigns`,
	campaign: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}`,
	page: (name: string, page: number) =>
		`${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/pages/${page}`,
	csv: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/csv`,
	start: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/start`,
	pause: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/pause`,
	resume: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/resume`,
	cancel: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/cancel`,
	report: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/report`,
	preview: (name: string) => `${WORKER_API_PREFIX}/campaigns/${encodeURIComponent(name)}/preview`,
} as const;

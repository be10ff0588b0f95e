import { expect } from 'vitest';
import type { ApiWorkerRig } from './apiRig';

/**
 * An API campaign made, its one page of `recipients` put and started, as the Campaign node
 * does it: each answer checked on the way (201, 200, 202).
 */
export async function startApiCampaign(
	call: ApiWorkerRig['call'],
	name: string,
	settings: Record<string, unknown>,
	recipients: unknown[],
): Promise<void> {
	const made = await call('PUT', `/campaigns/${name}`, settings);
	expect(made.status, JSON.stringify(made.body)).toBe(201);
	const page = await call('PUT', `/campaigns/${name}/pages/1`, { recipients });
	expect(page.status, JSON.stringify(page.body)).toBe(200);
	const started = await call('POST', `/campaigns/${name}/start`, { pages: 1 });
	expect(started.status, JSON.stringify(started.body)).toBe(202);
}

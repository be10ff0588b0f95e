import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../worker/src/daemon/api/apiError';
import { httpErrorHandler } from '../../../../worker/src/daemon/http/httpErrorHandler';
import { httpError } from '../../../../worker/src/daemon/http/httpErrors';
import { RefusalLog } from '../../../../worker/src/daemon/http/refusalLog';
import type { Logger, LogFields } from '../../../../worker/src/daemon/jsonLogger';

const SECRET_FAULT = 'ECONNREFUSED 10.0.0.7:5432 password=hunter2';

/** A server with the one handler, in the plain (callbacks) or coded (API) style, and its log. */
async function server(coded: boolean) {
	const lines: { msg: string; fields?: LogFields }[] = [];
	const log: Logger = {
		debug: (msg, fields) => lines.push({ msg, fields }),
		info: (msg, fields) => lines.push({ msg, fields }),
		warn: (msg, fields) => lines.push({ msg, fields }),
		error: (msg, fields) => lines.push({ msg, fields }),
	};
	const app = Fastify({ logger: false });
	app.setErrorHandler(
		httpErrorHandler({
			log,
			refusals: new RefusalLog(log),
			errorLine: 'webhook error',
			fastifyRefusal: () => undefined,
			...(coded ? { coded: { scrub: (json: string) => json } } : {}),
		}),
	);
	app.get('/catalogue', async () => {
		throw httpError('CALLBACK_WRONG_KIND', ['reply', 'receipts'], { fields: { route: 'x' } });
	});
	app.get('/api', async () => {
		throw new ApiError('started', 'campaign "w" has started', { field: 'name' });
	});
	app.get('/fault', async () => {
		throw new Error(SECRET_FAULT);
	});
	await app.ready();
	return { app, lines };
}

describe('the one HTTP error handler', () => {
	it("answers a thrown catalogue error with its status and code's message, counted by its reason", async () => {
		const { app, lines } = await server(false);
		const res = await app.inject({ method: 'GET', url: '/catalogue' });
		expect(res.statusCode).toBe(400);
		expect(res.json()).toEqual({ error: 'a reply sent to the receipts URL' });
		expect(lines).toContainEqual(
			expect.objectContaining({
				fields: expect.objectContaining({
					reason: 'callback sent to the URL of the other kind',
					status: 400,
				}),
			}),
		);
		await app.close();
	});

	it('answers an ApiError with its code and status in the API style', async () => {
		const { app } = await server(true);
		const res = await app.inject({ method: 'GET', url: '/api' });
		expect(res.statusCode).toBe(409);
		expect(res.headers['cache-control']).toBe('no-store');
		expect(res.json()).toEqual({
			error: { code: 'started', message: 'campaign "w" has started', field: 'name' },
		});
		await app.close();
	});

	it('answers an unknown error 500 without its message, in either style, and logs it', async () => {
		for (const coded of [false, true]) {
			const { app, lines } = await server(coded);
			const res = await app.inject({ method: 'GET', url: '/fault' });
			expect(res.statusCode).toBe(500);
			expect(res.body).not.toContain('hunter2');
			expect(res.body).not.toContain('ECONNREFUSED');
			expect(res.json()).toEqual(
				coded
					? { error: { code: 'INTERNAL', message: 'internal error' } }
					: { error: 'internal error' },
			);
			expect(lines.find((l) => l.msg === 'webhook error')?.fields?.error).toBeInstanceOf(Error);
			await app.close();
		}
	});
});

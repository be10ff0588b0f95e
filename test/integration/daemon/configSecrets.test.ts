import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../worker/harness';
import { ensureBuilt, tempDir } from './harness';

/** Digits only: YAML reads each as a number, which a type error used to print whole. */
const AUTH_TOKEN = '11112222333344445555';
const SECRET = '22223333444455556666';
const PREVIOUS = '77778888999900001111';
const REPORT_TOKEN = '33334444555566667777';
const API_TOKEN = '66667777888899990000';
const SMTP_PASSWORD = '98765432109876';
const HEADER = '55556666777788889999';
const N8N_SECRET = '44445555666677778888';

beforeAll(async () => {
	await ensureBuilt();
}, 120_000);

describe('config errors never print a secret', () => {
	it('names the path and the problem of every secret setting, not its value', async () => {
		const dir = tempDir();
		const config = join(dir, 'worker.config.yaml');
		writeFileSync(
			config,
			`provider: { baseUrl: "http://127.0.0.1:1", accountSid: A, authToken: ${AUTH_TOKEN} }
server: { publicUrl: "https://w.example.com", secret: ${SECRET}, previousSecret: ${PREVIOUS}, reportToken: ${REPORT_TOKEN}, apiToken: ${API_TOKEN} }
smtp: { host: localhost, from: a@example.com, user: u, password: ${SMTP_PASSWORD} }
replies:
  - actions: [{ type: post, url: "https://hook.example.com", headers: { authorization: ${HEADER} } }]
forward: { n8n: { url: "https://n8n.example.com/webhook/x", headers: { x-cloudtel-secret: ${N8N_SECRET} } } }
`,
		);
		const result = await cli(['worker', '--config', config, '--check']);
		expect(result.code).toBe(2);
		const lines = result.stderr;
		for (const path of [
			'provider.authToken',
			'server.secret',
			'server.previousSecret',
			'server.reportToken',
			'server.apiToken',
			'smtp.password',
			'replies[0].actions[0].headers.authorization',
			'forward.n8n.headers.x-cloudtel-secret',
		]) {
			expect(lines).toContain(`${path}: must be text, not a number`);
		}
		for (const secret of [
			AUTH_TOKEN,
			SECRET,
			PREVIOUS,
			REPORT_TOKEN,
			API_TOKEN,
			SMTP_PASSWORD,
			HEADER,
			N8N_SECRET,
		])
			expect(lines).not.toContain(secret);
	});

	it('a JSON config that does not parse says where, without quoting the text around it', async () => {
		const dir = tempDir();
		const config = join(dir, 'worker.config.json');
		writeFileSync(config, `{"server": {"secret": x${SECRET}}}`);
		const result = await cli(['worker', '--config', config, '--check']);
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/not valid JSON: Unexpected token 'x'/);
		expect(result.stderr).not.toContain(SECRET.slice(0, 8));
	});
});

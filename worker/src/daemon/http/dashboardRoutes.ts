import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ledger } from '../../storage/ledger';
import type { Dashboard } from '../dashboard/dashboard';
import { DASHBOARD_CSS } from '../dashboard/dashboardCss';
import { DASHBOARD_HEADERS } from '../dashboard/dashboardHeaders';
import { DASHBOARD_JS } from '../dashboard/dashboardScript';
import { evidenceCsv, outcomeCsv } from '../dashboard/csvDownloads';
import { bearerOf } from './bearer';
import { signInHtml } from '../dashboard/signInHtml';
import { confirmCancelHtml, messagePage } from '../dashboard/messagePage';
import type { CampaignControl } from '../api/campaignControl';
import {
	cookieOf,
	csrfToken,
	type Role,
	roleOfToken,
	SESSION_COOKIE,
	SESSION_SECONDS,
	sessionCookie,
	sessionRole,
	sessionValue,
	type Tokens,
} from './dashboardSession';
import type { RefusalLog } from './refusalLog';
import { REPORT_HEADERS, type ReportFigures, reportRoute } from './reportRoutes';
import { sameOrigin } from './sameOrigin';
import { secretMatches } from './secretMatches';

const CONTROLS = ['pause', 'resume', 'cancel'] as const;
type Control = (typeof CONTROLS)[number];
/** What a control did, in words: the notice after it, and why it could not. */
export const DONE: Record<Control, string> = {
	pause: 'paused',
	resume: 'resumed',
	cancel: 'cancelled',
};

export interface DashboardRouteOptions {
	tokens: Tokens;
	/** Pause, resume and cancel (the one CampaignControl every interface uses); none: read only. */
	control?: Pick<CampaignControl, 'pause' | 'resume' | 'cancel'>;
	ledger: Ledger;
	dashboard: Dashboard;
	/** The config's price and currency, for the reports' costs. */
	figures?: ReportFigures;
	/** `server.publicUrl` is https: the session cookie is Secure (a proxy's X-Forwarded-Proto is not trusted). */
	secureCookies: boolean;
	refusals: RefusalLog;
	/** Any other path here: the server's own 404. */
	notFound(reply: FastifyReply): FastifyReply;
}

/** Form bodies are tiny: a token, a form token, a confirmation. */
const FORM_BYTES = 4096;

const seconds = () => Math.floor(Date.now() / 1000);

/** A local path to go back to after a sign-in or a control; never another site's (`//host`). */
export function localPath(value: string | undefined, fallback: string): string {
	return value !== undefined && /^\/(?![/\\])[^\s]*$/.test(value) ? value : fallback;
}

export interface SignedIn {
	role: Role;
	cookie: string;
	csrf: string;
}

/** The request's session, when its cookie is one this worker signed with today's tokens and not expired. */
export function signedIn(request: FastifyRequest, tokens: Tokens): SignedIn | undefined {
	const cookie = cookieOf(request.headers.cookie, SESSION_COOKIE);
	const role = sessionRole(tokens, cookie, seconds());
	return role && cookie ? { role, cookie, csrf: csrfToken(tokens, cookie) } : undefined;
}

/** A form POST this session may make: from a page of this worker, with the session's form token. */
export function formAllowed(
	request: FastifyRequest,
	session: SignedIn,
	form: URLSearchParams,
): boolean {
	return sameOrigin(request.headers) && secretMatches(form.get('csrf') ?? '', session.csrf);
}

/**
 * The dashboard and reports (reportRoute), the sign-in page and the session's cookie.
 * Pages answer a browser with no session by sending it to the sign-in page; anything else
 * without a token gets the reports' 401, as before the dashboard.
 */
export async function dashboardRoutes(
	app: FastifyInstance,
	options: DashboardRouteOptions,
): Promise<void> {
	const { tokens, refusals } = options;
	app.removeAllContentTypeParsers();
	app.addContentTypeParser(
		'application/x-www-form-urlencoded',
		{ parseAs: 'string', bodyLimit: FORM_BYTES },
		(_request, body, done) => done(null, new URLSearchParams(body as string)),
	);
	// Any other body is not read: whatever it holds, the answer is the token's 401 or the method's 405.
	app.addContentTypeParser('*', (_request, payload, done) => {
		payload.resume();
		done(null, undefined);
	});
	const html = (reply: FastifyReply, status: number, body: string) =>
		reply
			.code(status)
			.headers({ ...DASHBOARD_HEADERS, 'content-type': 'text/html; charset=utf-8' })
			.send(body);
	const refused = (reply: FastifyReply, status: number, reason: string, body: string) => {
		refusals.refused(reason, { status });
		return html(reply, status, body);
	};

	const page = async (request: FastifyRequest, reply: FastifyReply) => {
		const url = new URL(request.url, 'http://worker');
		const session = signedIn(request, tokens);
		const report = await reportRoute(
			request.raw,
			url,
			{ tokens, ...(session ? { session } : {}) },
			options.ledger,
			options.dashboard,
			undefined,
			options.figures,
		);
		if (!report) return options.notFound(reply);
		const browser = /text\/html/.test(request.headers.accept ?? '');
		if (report.status === 401 && browser && request.method === 'GET') {
			refusals.refused('dashboard asked for without a session: sent to sign in', { status: 303 });
			const next = encodeURIComponent(url.pathname + url.search);
			return reply.code(303).header('location', `/sign-in?next=${next}`).send();
		}
		if (report.refused) refusals.refused(report.refused, { status: report.status });
		return reply
			.code(report.status)
			.headers({
				...(report.headers ?? REPORT_HEADERS),
				'content-type': report.type,
			})
			.send(report.body);
	};
	// `/` is the dashboard's for GET only: every other method there is the callbacks' 404.
	app.route({ method: ['GET', 'HEAD'], url: '/', handler: page });
	for (const url of [
		'/campaigns',
		'/campaigns/',
		'/campaigns.json',
		'/campaigns/:name',
		'/campaigns/:name/',
	])
		app.all(url, page);

	// Nothing of a campaign's in it: the sign-in page needs it before any token.
	app.get('/dashboard.css', (_request, reply) =>
		reply
			.headers({ ...DASHBOARD_HEADERS, 'content-type': 'text/css; charset=utf-8' })
			.send(DASHBOARD_CSS),
	);

	app.get('/dashboard.js', (_request, reply) =>
		reply
			.headers({ ...DASHBOARD_HEADERS, 'content-type': 'text/javascript; charset=utf-8' })
			.send(DASHBOARD_JS),
	);
	app.get('/sign-in', (request, reply) => {
		const next = new URL(request.url, 'http://worker').searchParams.get('next') ?? undefined;
		return html(reply, 200, signInHtml(localPath(next, '/campaigns')));
	});
	app.post('/sign-in', (request, reply) => {
		const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
		const next = localPath(form.get('next') ?? undefined, '/campaigns');
		// Another site's form could sign a visitor in as someone else (login CSRF).
		if (!sameOrigin(request.headers))
			return refused(
				reply,
				403,
				'sign-in from another site',
				signInHtml(next, 'Refused: this form came from another site.'),
			);
		const role = roleOfToken(tokens, form.get('token') ?? '');
		if (!role)
			return refused(
				reply,
				401,
				'wrong token at sign-in',
				signInHtml(next, 'That is neither the report token nor the API token of this worker.'),
			);
		const value = sessionValue(tokens, role, seconds() + SESSION_SECONDS);
		return reply
			.code(303)
			.headers({
				'set-cookie': sessionCookie(value, SESSION_SECONDS, options.secureCookies),
				location: next,
				'cache-control': 'no-store',
			})
			.send();
	});
	app.get('/campaigns/:name/:file', async (request, reply) => {
		const { name, file } = request.params as { name: string; file: string };
		const csv =
			file === 'outcome.csv' ? outcomeCsv : file === 'evidence.csv' ? evidenceCsv : undefined;
		if (!csv) return options.notFound(reply);
		const bearer = bearerOf(request.headers.authorization);
		const role =
			bearer !== undefined ? roleOfToken(tokens, bearer) : signedIn(request, tokens)?.role;
		if (!role)
			return refused(
				reply,
				401,
				'a download without a token',
				messagePage(
					'Sign in first',
					'The CSVs need a sign-in (or the token as a Bearer header).',
					'/sign-in',
				),
			);
		if (!(await options.ledger.campaign(name)))
			return refused(
				reply,
				404,
				'a download of no campaign',
				messagePage('No such campaign', `There is no campaign named ${name}.`, '/campaigns'),
			);
		const filename = `${name.replace(/[^\w.-]+/g, '_')}-${file}`;
		return reply
			.headers({
				...DASHBOARD_HEADERS,
				'content-type': 'text/csv; charset=utf-8',
				'content-disposition': `attachment; filename="${filename}"`,
			})
			.send(Readable.from(csv(options.ledger, name)));
	});
	app.post('/campaigns/:name/:action', async (request, reply) => {
		const { name, action } = request.params as { name: string; action: string };
		if (!(CONTROLS as readonly string[]).includes(action)) return options.notFound(reply);
		const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
		const back = localPath(form.get('back') ?? undefined, '/campaigns');
		// First, whoever is signed in: another site's form is refused outright.
		if (!sameOrigin(request.headers))
			return refused(
				reply,
				403,
				'control from another site',
				messagePage('Refused', 'This form came from another site.', back),
			);
		const session = signedIn(request, tokens);
		if (!session)
			return refused(
				reply,
				401,
				'control without a session',
				messagePage(
					'Sign in first',
					'Pause, resume and cancel need a sign-in with the API token.',
					'/sign-in',
				),
			);
		if (session.role !== 'control' || !options.control)
			return refused(
				reply,
				403,
				'control asked with the report token',
				messagePage(
					'Read only',
					'The report token only reads: sign in with the API token to pause, resume or cancel.',
					back,
				),
			);
		if (!formAllowed(request, session, form))
			return refused(
				reply,
				403,
				'control without its form token',
				messagePage('Refused', 'This form is not from this sign-in: open the page again.', back),
			);
		const row = await options.dashboard.row(name);
		if (!row)
			return refused(
				reply,
				404,
				'control of no campaign',
				messagePage('No such campaign', `There is no campaign named ${name}.`, back),
			);
		if (action === 'cancel' && form.get('confirm') !== 'yes')
			return html(reply, 200, confirmCancelHtml(name, session.csrf, back));
		const allowed =
			action === 'pause'
				? row.open && !row.paused
				: action === 'resume'
					? row.open && row.paused
					: row.open;
		if (!allowed)
			return html(
				reply,
				409,
				messagePage(
					'Not done',
					`${name} is ${row.phase}: it cannot be ${DONE[action as Control]} now.`,
					back,
				),
			);
		if (action === 'pause') await options.control.pause(name);
		else if (action === 'resume') await options.control.resume(name);
		else await options.control.cancel(name, 'cancelled from the dashboard');
		const to = new URL(back, 'http://worker');
		to.searchParams.set('done', action);
		to.searchParams.set('campaign', name);
		return reply
			.code(303)
			.headers({ location: to.pathname + to.search, 'cache-control': 'no-store' })
			.send();
	});
	app.post('/sign-out', (request, reply) => {
		const session = signedIn(request, tokens);
		const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
		if (session && !formAllowed(request, session, form))
			return refused(reply, 403, 'sign-out refused: another site or no form token', 'Refused.');
		return reply
			.code(303)
			.headers({
				'set-cookie': sessionCookie('', 0, options.secureCookies),
				location: '/sign-in',
				'cache-control': 'no-store',
			})
			.send();
	});
}

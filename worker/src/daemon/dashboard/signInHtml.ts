import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { pageShell } from './pageShell';

/** The sign-in page: one field for the report token (read only) or the API token (controls too). */
export function signInHtml(next: string, error?: string): string {
	const problem = error ? `<p class="notice" role="alert">${escape(error)}</p>` : '';
	return pageShell(
		'Sign in: campaigns',
		'<h1>Campaigns</h1>',
		`<form class="signin" method="post" action="/sign-in"><h2>Sign in</h2>${problem}<label for="token">The worker's report token (to read) or API token (to pause, resume and cancel too)</label><input id="token" name="token" type="password" autocomplete="current-password" required autofocus><input type="hidden" name="next" value="${escape(next)}"><button class="primary" type="submit">Sign in</button></form>`,
	);
}

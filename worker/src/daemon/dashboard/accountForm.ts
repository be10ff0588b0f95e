import { escapeHtml as escape } from '../../campaignReport/escapeHtml';

/** Who is signed in (read only, or with controls) and the sign-out button. */
export function accountForm(role: 'read' | 'control', csrf: string): string {
	const who = role === 'control' ? 'Signed in with controls' : 'Signed in, read only';
	return `<form class="controls" method="post" action="/sign-out"><span class="why">${who}</span><input type="hidden" name="csrf" value="${escape(csrf)}"><button type="submit">Sign out</button></form>`;
}

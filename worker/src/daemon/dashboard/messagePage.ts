import { escapeHtml as escape } from '../../campaignReport/escapeHtml';
import { pageShell } from './pageShell';

/** A refusal or a question in a page of its own, with the way back. */
export function messagePage(title: string, text: string, back: string, more = ''): string {
	return pageShell(
		title,
		'<h1>Campaigns</h1>',
		`<section class="signin"><h2>${escape(title)}</h2><p>${escape(text)}</p>${more}<p><a href="${escape(back)}">Back</a></p></section>`,
	);
}

/** Cancel's second step without script: the same form again, confirmed. */
export function confirmCancelHtml(name: string, csrf: string, back: string): string {
	const path = `/campaigns/${encodeURIComponent(name)}/cancel`;
	return messagePage(
		`Cancel ${name}?`,
		'Its rows not sent yet will never be sent. This cannot be undone.',
		back,
		`<form method="post" action="${escape(path)}"><input type="hidden" name="csrf" value="${escape(csrf)}"><input type="hidden" name="back" value="${escape(back)}"><input type="hidden" name="confirm" value="yes"><button class="danger" type="submit">Yes, cancel ${escape(name)}</button></form>`,
	);
}

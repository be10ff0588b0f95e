import { escapeHtml as escape } from '../../campaignReport/escapeHtml';

/**
 * Pause, resume and cancel as forms that POST and come back (303), so they work without
 * script; cancel first asks (confirmCancelHtml, or a dialog from /dashboard.js).
 */
export function controlForms(
	row: { name: string; open: boolean; paused: boolean },
	csrf: string,
	back: string,
): string {
	if (!row.open) return '';
	const path = `/campaigns/${encodeURIComponent(row.name)}`;
	const form = (action: string, label: string, extra = '', cls = '') =>
		`<form method="post" action="${escape(path)}/${action}"${extra}><input type="hidden" name="csrf" value="${escape(csrf)}"><input type="hidden" name="back" value="${escape(back)}"><button type="submit"${cls}>${label}<span class="sr-only"> ${escape(row.name)}</span></button></form>`;
	return `<div class="controls" data-f="controls">${
		row.paused ? form('resume', 'Resume') : form('pause', 'Pause')
	}${form('cancel', 'Cancel', ` data-confirm="Cancel ${escape(row.name)}? Its rows not sent yet will never be sent."`, ' class="danger"')}</div>`;
}

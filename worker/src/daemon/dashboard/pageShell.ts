import { escapeHtml as escape } from '../../campaignReport/escapeHtml';

/**
 * Every dashboard page: its stylesheet and script from this worker only. `inlineStyle`: a
 * campaign page's report styles, before the stylesheet, which overrides them (dark mode).
 */
export function pageShell(title: string, header: string, main: string, inlineStyle = ''): string {
	const style = inlineStyle ? `<style>${inlineStyle}</style>` : '';
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>${style}<link rel="stylesheet" href="/dashboard.css"><script src="/dashboard.js" defer></script></head><body><header class="top">${header}</header><main>${main}</main></body></html>`;
}

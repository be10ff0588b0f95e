import { columnIndex } from '../../../api';

/**
 * `{{Column}}` templates. Compiled once per campaign into literal and column parts, so
 * rendering a row is a join, not a regular expression per row.
 */
export type TemplatePart = { literal: string } | { column: string; index: number };

export interface CompiledTemplate {
	source: string;
	parts: TemplatePart[];
	/** Every column the template names, in order of first use. */
	columns: string[];
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

export function placeholders(source: string): string[] {
	const out: string[] = [];
	for (const m of source.matchAll(PLACEHOLDER)) if (!out.includes(m[1])) out.push(m[1]);
	return out;
}

/**
 * Binds each placeholder to its header index: exact name first, then a unique
 * case-insensitive match, because spreadsheets drift in capitalisation. Throws the list of
 * names the header lacks, so the run stops before anything is read.
 */
export function compileTemplate(source: string, header: readonly string[]): CompiledTemplate {
	checkBraces(source);
	const missing: string[] = [];
	const parts: TemplatePart[] = [];
	let last = 0;
	for (const m of source.matchAll(PLACEHOLDER)) {
		if (m.index > last) parts.push({ literal: source.slice(last, m.index) });
		const index = columnIndex(header, m[1]);
		if (index < 0) missing.push(m[1]);
		parts.push({ column: m[1], index });
		last = m.index + m[0].length;
	}
	if (last < source.length) parts.push({ literal: source.slice(last) });
	if (missing.length > 0) throw new MissingColumnsError([...new Set(missing)], header);
	return { source, parts, columns: placeholders(source) };
}

/** A template that cannot be sent as written. */
export class TemplateError extends Error {}

/**
 * `{{Name` or `{{}}` would otherwise go out literally, braces and all: what is left once the
 * placeholders are taken out must hold no `{{` or `}}`.
 */
function checkBraces(source: string): void {
	const rest = source.replace(PLACEHOLDER, (m) => ' '.repeat(m.length));
	const empty = /\{\{\s*\}\}/.exec(rest);
	if (empty)
		throw new TemplateError(
			`the template has an empty placeholder ${JSON.stringify(empty[0])} at character ${empty.index + 1}: write {{Column}} with a column's name`,
		);
	const open = rest.indexOf('{{');
	if (open >= 0)
		throw new TemplateError(
			`the placeholder that opens at character ${open + 1} ("${source.slice(open, open + 20)}") is never closed with }}`,
		);
	const close = rest.indexOf('}}');
	if (close >= 0)
		throw new TemplateError(`the template has "}}" at character ${close + 1} with no {{ before it`);
}

export class MissingColumnsError extends TemplateError {
	constructor(
		readonly missing: string[],
		readonly header: readonly string[],
	) {
		super(
			`the template uses ${missing.map((c) => `{{${c}}}`).join(', ')}, but the CSV has no such column (columns: ${header.join(', ') || 'none'})`,
		);
	}
}

/** Re-exported: the rule is api/'s, shared with the n8n nodes. */
export { columnIndex };

export type RenderResult = { text: string } | { emptyColumns: string[] };

/** A missing or blank value is an error, never a silent blank in someone's message. */
export function renderTemplate(
	template: CompiledTemplate,
	fields: readonly string[],
): RenderResult {
	let text = '';
	let empty: string[] | undefined;
	for (const part of template.parts) {
		if ('literal' in part) {
			text += part.literal;
			continue;
		}
		const value = fields[part.index];
		if (value === undefined || value.trim() === '') (empty ??= []).push(part.column);
		else text += value;
	}
	return empty ? { emptyColumns: [...new Set(empty)] } : { text };
}

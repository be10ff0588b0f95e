import { randomBytes } from 'node:crypto';
import type { TrackedLink } from '../storage/ledger';

/** URL-safe, and short enough that a link costs few characters of a segment. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** 10 characters of 64: 60 random bits, so a million links hold no guessable neighbour. */
export const TOKEN_LENGTH = 10;
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{10}$/;

/** A fresh token: random, holding nothing of the row or its number. */
export function newToken(): string {
	const bytes = randomBytes(TOKEN_LENGTH);
	let token = '';
	for (const b of bytes) token += ALPHABET[b & 63];
	return token;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation a sentence puts after a link, not part of it. */
const TRAILING = /[.,;:!?'"]+$/;

function trimmed(url: string): string {
	let u = url.replace(TRAILING, '');
	// "(see https://x.example/a)": the closing bracket is the sentence's unless the URL opened one.
	while (u.endsWith(')') && (u.match(/\(/g)?.length ?? 0) < (u.match(/\)/g)?.length ?? 0)) {
		u = u.slice(0, -1).replace(TRAILING, '');
	}
	return u;
}

/**
 * `--track-links`: every http(s) URL of a rendered text becomes `{linkBase}/{token}`, one
 * token per URL of the row (a URL written twice shares it). The segments are counted on
 * what this returns, since that is what is sent.
 */
export function rewriteLinks(
	text: string,
	linkBase: string,
	makeToken: () => string = newToken,
): { text: string; links: TrackedLink[] } {
	const links: TrackedLink[] = [];
	const base = linkBase.replace(/\/+$/, '');
	const out = text.replace(URL_IN_TEXT, (found) => {
		const url = trimmed(found);
		if (url.length <= found.indexOf('//') + 2) return found;
		let link = links.find((l) => l.url === url);
		if (!link) {
			link = { token: makeToken(), url };
			links.push(link);
		}
		return `${base}/${link.token}${found.slice(url.length)}`;
	});
	return { text: out, links };
}

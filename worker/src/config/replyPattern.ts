/**
 * A reply rule's regular expression: `/pattern/flags`, or a bare pattern read without
 * regard to case, because people type replies in any case.
 */
export function compileReplyPattern(source: string): RegExp | undefined {
	const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
	try {
		return literal
			? new RegExp(literal[1], literal[2].replace(/[gy]/g, ''))
			: new RegExp(source, 'i');
	} catch {
		return undefined;
	}
}

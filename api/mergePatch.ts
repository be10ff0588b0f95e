import { isPlainObject } from './fields';

export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';

/** True for `application/merge-patch+json`, in any case, with or without parameters. */
export function isMergePatchContentType(header: string | undefined): boolean {
	if (!header) return false;
	return header.split(';')[0].trim().toLowerCase() === MERGE_PATCH_CONTENT_TYPE;
}

/**
 * RFC 7396: absent fields stay, objects merge field by field, anything else (arrays
 * included) replaces. Null removes, though this interface refuses nulls before this point.
 */
export function applyMergePatch<T>(target: T, patch: unknown): T {
	if (!isPlainObject(patch)) return patch as T;
	const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) delete base[key];
		else base[key] = applyMergePatch(base[key], value);
	}
	return base as T;
}

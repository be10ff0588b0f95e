// Every documentation link in the built package (the credential's documentationUrl, each
// node's documentationUrl, and the codex files' primary and credential documentation) must
// land on a heading of the README that GitHub shows at the repository's address, and so
// must the URL n8n's editor actually opens from it.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const repository = String(pkg.repository.url)
	.replace(/^git\+/, '')
	.replace(/\.git$/, '');
const load = createRequire(__filename);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

const anchors = new Set(
	readFileSync(join(root, 'README.md'), 'utf8')
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) => slug(line.replace(/^#+ /, ''))),
);

function built(file: string) {
	const path = join(root, file);
	if (!existsSync(path)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	return load(path) as Record<string, new () => Record<string, unknown>>;
}

interface Link {
	where: string;
	url: string;
	/** What n8n's editor opens for it, when that differs from the link itself. */
	opened?: string;
}

function links(): Link[] {
	const out: Link[] = [];
	for (const file of pkg.n8n.credentials as string[]) {
		for (const Type of Object.values(built(file))) {
			const credential = new Type() as { name: string; documentationUrl?: string };
			// The credential modal opens a non-docs.n8n.io http(s) URL as it is.
			if (credential.documentationUrl)
				out.push({ where: `credential ${credential.name}`, url: credential.documentationUrl });
		}
	}
	for (const file of pkg.n8n.nodes as string[]) {
		for (const Type of Object.values(built(file))) {
			const { description } = new Type() as {
				description: { name: string; documentationUrl?: string };
			};
			const codexFile = join(root, file.replace(/\.js$/, '.json'));
			expect(existsSync(codexFile), `${codexFile} ships beside the node`).toBe(true);
			const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
			const primary: string[] = (codex.resources?.primaryDocumentation ?? []).map(
				(r: { url: string }) => r.url,
			);
			const credentialDocs: string[] = (codex.resources?.credentialDocumentation ?? []).map(
				(r: { url: string }) => r.url,
			);
			// n8n's node settings (1.85 and 2.40 alike): an http documentationUrl as it is,
			// otherwise the codex's first primary URL with "?utm_source=..." appended.
			const utm = new URLSearchParams({
				utm_source: 'n8n_app',
				utm_medium: 'node_settings_modal-credential_link',
				utm_campaign: `${pkg.name}.${description.name}`,
			});
			const opened = description.documentationUrl?.startsWith('http')
				? description.documentationUrl
				: primary[0] && `${primary[0]}?${utm}`;
			expect(opened, `${description.name} has a documentation link`).toBeTruthy();
			if (description.documentationUrl)
				out.push({ where: `node ${description.name}`, url: description.documentationUrl, opened });
			for (const url of primary)
				out.push({
					where: `codex of ${description.name}`,
					url,
					opened: description.documentationUrl ? undefined : opened,
				});
			for (const url of credentialDocs)
				out.push({ where: `codex of ${description.name} (credential)`, url });
		}
	}
	return out;
}

describe('documentation links of the built package', () => {
	const all = links();

	it('exist for the credential and both nodes', () => {
		expect(all.map((l) => l.where)).toEqual(
			expect.arrayContaining(['credential cloudTelApi', 'node cloudTel', 'node cloudTelTrigger']),
		);
	});

	it.each(all.map((l) => [l.where, l] as const))(
		'%s resolves to a README heading, as linked and as n8n opens it',
		(_where, link) => {
			for (const url of [link.url, link.opened ?? link.url]) {
				const parsed = new URL(url);
				expect(`${parsed.origin}${parsed.pathname}`).toBe(repository);
				expect(
					parsed.search,
					`${url}: a query before the fragment is not GitHub's README page`,
				).toBe('');
				expect(anchors, `${url}: #${parsed.hash.slice(1)} is not a heading of README.md`).toContain(
					decodeURIComponent(parsed.hash.slice(1)),
				);
			}
		},
	);
});

// The house's import boundaries for what ships inside n8n (DEVELOPERS.md, "The house"):
// api/ imports nothing outside itself and uses none of Node's globals; nodes/ and
// credentials/ import n8n-workflow and api/ only; the worker and the sandbox never import
// the n8n side. Run by `npm run lint`. A script, not an ESLint rule: the root
// eslint.config.mjs that lints these files must stay n8n's default for n8n Cloud
// verification, and n8n's own no-restricted-imports lets a node import any devDependency.
//
// Imports are read with the TypeScript compiler's own scanner (import, export from,
// import(), require()); relative ones are resolved to a file, so `../../worker/src/x`
// is caught wherever it is written from.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// `--root=DIR` checks another tree laid out as this one (a check's own trial does).
const rootArg = process.argv.find((a) => a.startsWith('--root='));
const base = rootArg ? resolve(rootArg.slice('--root='.length)) : root;

/** Per folder: the packages and the folders its files may import. */
const RULES = [
	{
		folder: 'api',
		packages: [],
		folders: ['api'],
		globals: ['process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'globalThis'],
	},
	// node:crypto: the trigger checks webhook signatures (HMAC); n8n Cloud's own lint allows it.
	{
		folder: 'nodes',
		packages: ['n8n-workflow', 'node:crypto'],
		folders: ['api', 'nodes', 'credentials'],
	},
	{ folder: 'credentials', packages: ['n8n-workflow'], folders: ['api', 'nodes', 'credentials'] },
	{ folder: 'worker/src', packages: '*', notFolders: ['nodes', 'credentials'] },
	{ folder: 'sandbox/src', packages: '*', notFolders: ['nodes', 'credentials'] },
];

function files(dir) {
	let names;
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	return names.flatMap((name) => {
		const path = join(dir, name);
		if (name === 'node_modules' || name === 'dist') return [];
		if (statSync(path).isDirectory()) return files(path);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
	});
}

/** The file a relative import names, or the path as written when none exists. */
function resolveImport(from, spec) {
	const target = resolve(dirname(from), spec);
	for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// not this one
		}
	}
	return target;
}

const inFolder = (path, folder) =>
	path === join(base, folder) || path.startsWith(join(base, folder) + sep);
const packageOf = (spec) =>
	spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];

/** Node's globals read as values in `source` (a property or a declaration of that name is not one). */
function globalsUsed(source, names) {
	const found = [];
	const visit = (node) => {
		if (ts.isIdentifier(node) && names.includes(node.text)) {
			const p = node.parent;
			const isName =
				(ts.isPropertyAccessExpression(p) && p.name === node) ||
				(ts.isPropertyAssignment(p) && p.name === node) ||
				(ts.isQualifiedName(p) && p.right === node) ||
				((ts.isVariableDeclaration(p) ||
					ts.isParameter(p) ||
					ts.isFunctionDeclaration(p) ||
					ts.isMethodDeclaration(p) ||
					ts.isPropertySignature(p) ||
					ts.isPropertyDeclaration(p)) &&
					p.name === node);
			if (!isName)
				found.push({
					name: node.text,
					line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
				});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const problems = [];
let checked = 0;
for (const rule of RULES) {
	for (const file of files(join(base, rule.folder))) {
		checked++;
		const text = readFileSync(file, 'utf8');
		const where = relative(base, file);
		for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
			if (spec.startsWith('.')) {
				const target = resolveImport(file, spec);
				const allowed = rule.folders
					? rule.folders.some((f) => inFolder(target, f))
					: !rule.notFolders.some((f) => inFolder(target, f));
				if (!allowed)
					problems.push(
						`${where}: imports "${spec}" (${relative(base, target)}); ${rule.folder}/ may import ${rule.folders ? `only from ${rule.folders.join('/, ')}/` : `nothing from ${rule.notFolders.join('/ or ')}/`}`,
					);
			} else if (rule.packages !== '*' && !rule.packages.includes(packageOf(spec))) {
				problems.push(
					`${where}: imports "${spec}"; ${rule.folder}/ may import ${rule.packages.length ? `no package but ${rule.packages.join(', ')}` : 'no package'}`,
				);
			}
		}
		if (rule.globals) {
			const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
			for (const { name, line } of globalsUsed(source, rule.globals))
				problems.push(
					`${where}:${line}: uses Node's global "${name}"; ${rule.folder}/ ships inside n8n and runs without them`,
				);
		}
	}
}
if (problems.length > 0) {
	for (const p of problems) console.error(`import-boundaries: ${p}`);
	process.exit(1);
}
console.log(
	`import-boundaries: ${checked} files of api/, nodes/, credentials/, worker/src and sandbox/src keep their import boundaries`,
);

// Import cycles in worker/src: none between files, and none between folders (a folder
// imports only folders below it; see docs/internals.md, "Worker: Layout of the source"). Run by `npm run lint`.
//
// Files are read with the TypeScript compiler's own import scanner (typescript is already a
// devDependency); only relative imports count. The top-level folders of worker/src are the
// units of the folder check; a file directly in worker/src is a unit of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// `--src=DIR` checks another tree laid out as worker/src (the check's own test does).
const srcArg = process.argv.find((a) => a.startsWith('--src='));
const src = srcArg ? resolve(srcArg.slice('--src='.length)) : join(root, 'worker/src');

/**
 * The layers of worker/src, top to bottom (docs/internals.md, "Worker: Layout of the source"): a
 * folder imports folders of its own layer or below, never above, and the folders of one
 * layer import each other without a cycle. A new folder goes into one of them.
 */
const LAYERS = [
	// cli.ts and the cli/ folder are one unit.
	['cli', 'crashHandler'],
	['daemon'],
	['config'],
	['report', 'campaignReport'],
	['campaign'],
	['csv', 'rows'],
	['provider', 'pacing', 'schedule'],
	// The only folder with SQL: the ledger, the daemon's and the API's stores, both backends.
	['storage'],
	// The campaign's settings (CampaignSpec), which the ledgers store.
	['settings'],
	['errors'],
];
const LAYER = new Map(LAYERS.flatMap((units, i) => units.map((u) => [u, i])));

function files(dir) {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return files(path);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
	});
}

function resolveImport(from, spec) {
	if (!spec.startsWith('.')) return undefined;
	const base = resolve(dirname(from), spec);
	for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// not this one
		}
	}
	return undefined;
}

/** The unit of the folder check a file belongs to: its top-level folder, or itself. */
const unitOf = (file) => {
	const rel = relative(src, file).split(sep);
	return rel.length > 1 ? rel[0] : rel[0].replace(/\.ts$/, '');
};

/** Tarjan's strongly connected components of a graph given as Map<node, Set<node>>. */
function components(graph) {
	let index = 0;
	const stack = [];
	const on = new Set();
	const idx = new Map();
	const low = new Map();
	const out = [];
	const visit = (v) => {
		idx.set(v, index);
		low.set(v, index++);
		stack.push(v);
		on.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!idx.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v), low.get(w)));
			} else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
		}
		if (low.get(v) === idx.get(v)) {
			const c = [];
			let w;
			do {
				w = stack.pop();
				on.delete(w);
				c.push(w);
			} while (w !== v);
			if (c.length > 1 || graph.get(v)?.has(v)) out.push(c);
		}
	};
	for (const v of graph.keys()) if (!idx.has(v)) visit(v);
	return out;
}

const fileGraph = new Map();
const folderGraph = new Map();
/** `from -> to` folder edge -> the file imports that make it. */
const folderEdgeFiles = new Map();
for (const file of files(src)) {
	const deps = new Set();
	for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
		.importedFiles) {
		const target = resolveImport(file, fileName);
		if (!target || !target.startsWith(src + sep)) continue;
		deps.add(target);
		const [a, b] = [unitOf(file), unitOf(target)];
		if (a === b) continue;
		if (!folderGraph.has(a)) folderGraph.set(a, new Set());
		folderGraph.get(a).add(b);
		const edge = `${a} -> ${b}`;
		if (!folderEdgeFiles.has(edge)) folderEdgeFiles.set(edge, []);
		folderEdgeFiles.get(edge).push(`${relative(src, file)} -> ${relative(src, target)}`);
	}
	fileGraph.set(file, deps);
}

let failed = false;
for (const unit of new Set([...fileGraph.keys()].map(unitOf))) {
	if (LAYER.has(unit)) continue;
	failed = true;
	console.error(
		`import-cycles: worker/src/${unit} is in no layer: add it to LAYERS in scripts/import-cycles.mjs (and to docs/internals.md, "Worker: Layout of the source")`,
	);
}
for (const [a, to] of folderGraph) {
	for (const b of to) {
		const edge = `${a} -> ${b}`;
		if (!(LAYER.get(a) > LAYER.get(b))) continue;
		failed = true;
		console.error(
			`import-cycles: ${a} imports ${b}, a layer above it: ${folderEdgeFiles.get(edge).join(', ')}`,
		);
	}
}
for (const c of components(fileGraph)) {
	failed = true;
	console.error(`import cycle between files: ${c.map((f) => relative(src, f)).join(', ')}`);
}

// The folder edges inside a cycle: every edge whose both ends are in one component.
const cycleEdges = [];
for (const c of components(folderGraph)) {
	const inside = new Set(c);
	for (const a of c)
		for (const b of folderGraph.get(a) ?? []) if (inside.has(b)) cycleEdges.push(`${a} -> ${b}`);
}
for (const e of cycleEdges.sort()) {
	failed = true;
	console.error(
		`import cycle between folders of worker/src: ${e}, made by ${folderEdgeFiles.get(e).join(', ')}`,
	);
}
if (failed) {
	console.error(
		'import-cycles: a folder imports only folders below it (docs/internals.md, "Worker: Layout of the source")',
	);
	process.exit(1);
}
console.log(
	`import-cycles: no import cycle in worker/src between its ${fileGraph.size} files or between its folders; every folder imports only its layer and below`,
);

// Preloaded (NODE_OPTIONS=--import) into the n8n process of the panel test only, never
// into any other run. n8n installs community packages from a registry other than
// registry.npmjs.org only when its licence has feat:communityNodes:customRegistry
// (CommunityPackagesService.getNpmRegistry: License.isCustomNpmRegistryEnabled(), on 1.85
// as on 2.x); without it the install answers HTTP 500 before npm runs. The test must install
// from a local registry (it cannot publish to npmjs.org), so this lifts that one gate in its
// own process: when n8n's License class is loaded, isCustomNpmRegistryEnabled returns true.
// Everything else the panel does (npm pack/install, loading, the database) runs unchanged.
import Module from 'node:module';

const load = Module._load;
let patched = false;
Module._load = function loadAndPatch(request, parent, isMain) {
	const exported = load.call(this, request, parent, isMain);
	// n8n's licence module is required as `./license`, `../license` or `@/license`: only its
	// exports are looked at (reading a property of a module still loading warns).
	if (patched || !/(^|\/)license(\.js)?$/.test(request) || !exported) return exported;
	const License = exported.License;
	if (
		typeof License === 'function' &&
		typeof License.prototype.isCustomNpmRegistryEnabled === 'function'
	) {
		License.prototype.isCustomNpmRegistryEnabled = () => true;
		patched = true;
	}
	return exported;
};

// Runs first in `prepublishOnly` (both packages), before anything is built: n8n's
// verification of community nodes requires npm provenance, and npm can only make a
// provenance statement inside a CI run that hands it an OIDC identity (GitHub Actions with
// `id-token: write`, as .github/workflows/publish.yml has). A publish from a laptop would
// build, then fail at the very end, or, without --provenance, publish a package n8n will not
// verify. So a publish without provenance, or asking for it outside CI, stops here, saying
// why. CLOUDTEL_PUBLISH_WITHOUT_PROVENANCE=1 lets a deliberate publish to a private registry
// through.
const name = process.env.npm_package_name ?? 'this package';
const asked = process.env.npm_config_provenance === 'true';
const oidc =
	Boolean(process.env.ACTIONS_ID_TOKEN_REQUEST_URL) ||
	Boolean(process.env.CI_JOB_JWT_V2 || process.env.NPM_ID_TOKEN);
const override = process.env.CLOUDTEL_PUBLISH_WITHOUT_PROVENANCE === '1';

function stop(reason) {
	console.error(`\nnpm publish of ${name} stopped before building anything: ${reason}

${name} is published with npm provenance (n8n's verification of community nodes
requires it of n8n-nodes-cloudtel; the CLI beside it gets the same), and npm can make a
provenance statement only inside CI that gives it an OIDC identity (GitHub Actions with
\`permissions: id-token: write\`). Publish by creating a GitHub release:
.github/workflows/publish.yml builds, lints and publishes both packages with
--provenance. To publish without provenance anyway (a private registry, a test), set
CLOUDTEL_PUBLISH_WITHOUT_PROVENANCE=1.
`);
	process.exit(1);
}

if (!override) {
	if (!asked) stop('no --provenance was given.');
	if (!oidc) stop('--provenance was given, but this is not a CI run with an OIDC identity.');
}

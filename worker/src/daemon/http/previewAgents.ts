/**
 * User agents that fetch a link without a person: chat and social previews, mail and
 * messaging security scanners, crawlers. A request from one is a prefetch, not a click.
 */
const PREVIEW_AGENTS =
	/bot\b|bot\/|crawler|spider|preview|facebookexternalhit|meta-externalagent|slack|whatsapp|telegram|skype|discord|twitter|linkedin|pinterest|embedly|vkshare|google-(?:safety|read-aloud|inspectiontool)|googleother|bingpreview|yahoo! slurp|applebot|iframely|outbrain|quora link|redditbot|scanner|proofpoint|mimecast|barracuda|safelinks|urldefense|headlesschrome|phantomjs|lighthouse/i;

export function isPreviewAgent(userAgent: string | undefined): boolean {
	return userAgent !== undefined && PREVIEW_AGENTS.test(userAgent);
}

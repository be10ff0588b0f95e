/**
 * Error codes that prove a request never left: raised before a connection was made, or by
 * its TLS handshake, which ends before a byte of the request is written. Rows of such a
 * request are pending, never uncertain. A reset, a timeout or a closed socket after the
 * connection was up is not here: the request may have been written and processed.
 */
const UNREACHABLE = [
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_CONNECT_TIMEOUT',
	'ECONNABORTED',
];
/** These will not mend by waiting: a wrong address or a TLS mismatch. */
const MISADDRESSED = [
	'ERR_INVALID_URL',
	'UND_ERR_INVALID_ARG',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	'ERR_SSL_PACKET_LENGTH_TOO_LONG',
	'ERR_SSL_UNSUPPORTED_PROTOCOL',
	'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
	'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
	'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
	'ERR_SSL_TLSV1_UNRECOGNIZED_NAME',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_REVOKED',
	'CERT_UNTRUSTED',
	'CERT_REJECTED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'HOSTNAME_MISMATCH',
];

export type NeverSent = 'unreachable' | 'misaddressed';

const KINDS = new Map<string, NeverSent>([
	...UNREACHABLE.map((c) => [c, 'unreachable'] as const),
	...MISADDRESSED.map((c) => [c, 'misaddressed'] as const),
]);

/** Whether an error code proves the request never left, and whether waiting could mend it. */
export function neverSent(code: string): NeverSent | undefined {
	return KINDS.get(code);
}

/**
 * What versions before this rule stored on rows whose request failed with one of these
 * codes: they were settled uncertain with the message `answer lost: CODE: ...`. A resume
 * puts such rows back to pending, once the provider has answered.
 */
export const NEVER_SENT_LOST_MESSAGES: readonly string[] = [...KINDS.keys()].map(
	(code) => `answer lost: ${code}: `,
);

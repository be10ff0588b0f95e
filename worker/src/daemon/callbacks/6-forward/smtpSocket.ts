import { connect } from 'node:net';
import type { Socket } from 'node:net';

/**
 * Opens SMTP connections with Nagle's algorithm off. Nodemailer writes a message in
 * several small pieces; with Nagle on, the last waits for the server's delayed ACK, about
 * 40 ms per e-mail, which was most of a reply's way to the inbox. TLS (port 465, or
 * STARTTLS) is still layered on this socket by nodemailer.
 *
 * The socket is handed over while it connects, never with an error: nodemailer's own
 * handlers then see a refused connection, and its pool drops the connection cleanly
 * (an error passed back from here leaves the pool's queued messages waiting forever).
 */
export function smtpSocket(
	options: { host?: string; port?: number },
	callback: (error: Error | null, socket: { connection: Socket }) => void,
): void {
	callback(null, {
		connection: connect({ host: options.host, port: options.port ?? 25, noDelay: true }),
	});
}

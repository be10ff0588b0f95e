import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../../config/workerConfigSchema';
import type { ForwardIdentity, ForwardOutcome } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';
import { replyEmail } from './replyEmail';
import { smtpSocket } from './smtpSocket';

/** SMTP errors about the envelope or the message itself: the server will refuse it again. */
const REFUSED = new Set(['EENVELOPE', 'EMESSAGE']);

/** Sends reply e-mails over SMTP with nodemailer, through a pool of `connections` connections. */
export class SmtpSender {
	private readonly transport: nodemailer.Transporter;

	constructor(
		private readonly smtp: SmtpConfig,
		connections: number,
	) {
		this.transport = nodemailer.createTransport({
			pool: true,
			maxConnections: connections,
			// A pooled connection stays for as many messages as come: a new one costs a
			// handshake (and TLS and AUTH) the burst it serves can do without.
			maxMessages: Infinity,
			host: smtp.host,
			port: smtp.port,
			secure: smtp.secure ?? smtp.port === 465,
			// The password and every reply would otherwise go in clear to a server that offers
			// no STARTTLS, or to whoever strips it from the greeting on the way.
			requireTLS: !smtp.allowInsecure,
			auth: smtp.user !== undefined ? { user: smtp.user, pass: smtp.password } : undefined,
			connectionTimeout: 10_000,
			greetingTimeout: 10_000,
			socketTimeout: 30_000,
			getSocket: (options, callback) => smtpSocket(options, callback),
		});
	}

	async send(payload: ForwardPayload, identity: ForwardIdentity): Promise<ForwardOutcome> {
		if (payload.action.type !== 'forwardEmail')
			return { kind: 'failed', reason: `not an e-mail forward: ${payload.action.type}` };
		const mail = replyEmail(payload.context, payload.action.subject);
		try {
			await this.transport.sendMail({
				from: payload.action.from ?? this.smtp.from,
				to: payload.action.to,
				subject: mail.subject,
				text: mail.text,
				// The same on every attempt: an attempt cut off after the server took the message
				// is sent again, and mail systems can tell the repeat by this.
				messageId: `<${identity.key}@cloudtel-worker>`,
			});
			return { kind: 'sent' };
		} catch (error) {
			const e = error as { code?: string; responseCode?: number; message: string };
			const reason = `${e.code ?? 'error'}${e.responseCode ? ` ${e.responseCode}` : ''}: ${e.message}`;
			if (REFUSED.has(e.code ?? '') && e.responseCode !== undefined && e.responseCode >= 500)
				return { kind: 'failed', reason };
			return { kind: 'retry', reason };
		}
	}

	close(): void {
		this.transport.close();
	}
}

// The soak's SMTP server: every forwarded reply lands in one mailbox, kept across outages
// (the server stopped and started again on the same port, as a relay restarts).
import { SMTPServer } from 'smtp-server';

/** A mail as the soak judges it: its Message-ID and the reply's MessageSid in its body. */
function parse(raw) {
	const text = raw.replace(/=\r?\n/g, '');
	return {
		messageId: /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(text)?.[1] ?? '',
		sid: /MessageSid: ([0-9a-f-]{36})/.exec(text)?.[1] ?? '',
	};
}

export async function soakMailbox(port) {
	const mails = [];
	let server;
	const start = () =>
		new Promise((resolve, reject) => {
			server = new SMTPServer({
				authOptional: true,
				disabledCommands: ['STARTTLS'],
				logger: false,
				closeTimeout: 100,
				onData(stream, _session, callback) {
					const chunks = [];
					stream.on('data', (c) => chunks.push(c));
					stream.on('end', () => {
						mails.push({ ...parse(Buffer.concat(chunks).toString('utf8')), at: Date.now() });
						callback();
					});
				},
			});
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => {
				server.off('error', reject);
				// A client's connection reset (a worker's copy killed mid-session) is its own affair.
				server.on('error', () => undefined);
				resolve();
			});
		});
	await start();
	return {
		port,
		mails,
		start,
		/** Refuses connections until start(); a connection open now is cut within 100 ms. */
		stop: () => new Promise((resolve) => server.close(resolve)),
	};
}

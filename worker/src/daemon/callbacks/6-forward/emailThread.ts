import { parentPort, workerData } from 'node:worker_threads';
import type { SmtpConfig } from '../../../config/workerConfigSchema';
import type { EmailThreadReply, EmailThreadRequest } from './emailThreadMessages';
import { SmtpSender } from './smtpSender';

/** The e-mail thread (see EmailForwarder): sends what the daemon's thread hands over. */
const { smtp, connections } = workerData as { smtp: SmtpConfig; connections: number };
const sender = new SmtpSender(smtp, connections);
const port = parentPort!;

port.on('message', (request: EmailThreadRequest) => {
	if (request.type === 'close') {
		sender.close();
		port.close();
		return;
	}
	void sender
		.send(request.payload, request.identity)
		.then((outcome) => port.postMessage({ id: request.id, outcome } satisfies EmailThreadReply));
});

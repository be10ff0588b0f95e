import type { ForwardIdentity, ForwardOutcome } from './forwardOutcome';
import type { ForwardPayload } from './forwardPayload';

/** What the daemon's thread asks of the e-mail thread. */
export type EmailThreadRequest =
	| { type: 'send'; id: number; payload: ForwardPayload; identity: ForwardIdentity }
	| { type: 'close' };

/** The e-mail thread's answer to one `send`. */
export interface EmailThreadReply {
	id: number;
	outcome: ForwardOutcome;
}

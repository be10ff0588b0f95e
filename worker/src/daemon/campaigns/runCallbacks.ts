import { isBlank } from '../../../../api';
import type { WorkerConfig } from '../../config/workerConfigSchema';
import { callbackUrl } from '../callbacks/1-http/callbackUrls';

/**
 * The webhooks every message of a campaign's run carries, to this worker, config and API
 * campaigns alike: receipts when it wants them; replies when it wants them and sends from a
 * leased number, as the provider calls back replies to no other sender.
 */
export function runCallbacks(
	server: WorkerConfig['server'],
	wants: { receipts: boolean; replies: boolean; from?: string },
): { DeliveryReceiptWebhookUri?: string; WebhookUri?: string } {
	const { publicUrl, secret } = server;
	return {
		...(wants.receipts
			? { DeliveryReceiptWebhookUri: callbackUrl(publicUrl, secret, 'receipts') }
			: {}),
		...(wants.replies && isBlank(wants.from)
			? { WebhookUri: callbackUrl(publicUrl, secret, 'replies') }
			: {}),
	};
}

import type { FastifyInstance } from 'fastify';
import { validateCreateSipTrunk, type CreateSipTrunkRequest } from '../../../api';
import type { SandboxDeps } from '../deps';
import { invalid, notFound } from '../http/apiError';
import { newSid } from '../state/ids';

export function registerSipTrunk(app: FastifyInstance, { store }: SandboxDeps): void {
	app.post<{ Params: { PropertySid: string } }>(
		'/Properties/:PropertySid/SipTrunk',
		async (request) => {
			const property = store.ownProperty(request.account.AccountSid, request.params.PropertySid);
			if (!property) throw notFound(`Property ${request.params.PropertySid}`);
			const violations = validateCreateSipTrunk(request.body);
			if (violations.length > 0) throw invalid(violations);
			const body = request.body as CreateSipTrunkRequest;
			const SipTrunkSid = newSid();
			store.trunks.set(SipTrunkSid, {
				...body,
				SipTrunkAllowedCountries: body.SipTrunkAllowedCountries?.length
					? body.SipTrunkAllowedCountries
					: [{ CountryCode: 'AU' }],
				ChannelLimit: body.ChannelLimit ?? 1,
				SipTrunkSid,
				AccountSid: property.AccountSid,
				PropertySid: property.PropertySid,
			});
			return { SipTrunkSid };
		},
	);
}

import type { FastifyInstance } from 'fastify';
import { ADDRESS_INPUT_FIELDS, ErrorCodes, validateAddAddress, type Address } from '../../../api';
import type { SandboxDeps } from '../deps';
import { fail, invalid, notFound } from '../http/apiError';
import { newSid } from '../state/ids';
import type { AddressRecord } from '../state/records';

function publicAddress(a: AddressRecord): Address {
	const { Created: _created, ...address } = a;
	return address;
}

export function registerAddresses(app: FastifyInstance, { store, clock }: SandboxDeps): void {
	app.post<{ Params: { AccountSid: string } }>(
		'/Accounts/:AccountSid/Addresses',
		async (request) => {
			// The AccountSid in a path must be the caller's own (contract.md).
			if (request.params.AccountSid !== request.account.AccountSid)
				throw notFound(`Account ${request.params.AccountSid}`);
			const violations = validateAddAddress(request.body);
			if (violations.length > 0) throw invalid(violations);
			const input = request.body as Record<string, unknown>;
			const address = {
				AddressSid: newSid(),
				AccountSid: request.account.AccountSid,
				Status: 'Approved',
				Created: clock.now(),
			} as AddressRecord;
			for (const field of ADDRESS_INPUT_FIELDS) {
				if (input[field] !== undefined && input[field] !== null)
					(address as unknown as Record<string, unknown>)[field] = input[field];
			}
			store.addresses.set(address.AddressSid, address);
			return { Address: publicAddress(address) };
		},
	);

	app.delete<{ Params: { AddressSid: string } }>('/Addresses/:AddressSid', async (request) => {
		const address = store.ownAddress(request.account.AccountSid, request.params.AddressSid);
		if (!address) throw notFound(`Address ${request.params.AddressSid}`);
		if (store.addressInUse(address.AddressSid)) {
			throw fail(
				400,
				ErrorCodes.AddressInUse,
				'This address cannot be deleted while numbers rely on it for registration.',
				'AddressSid',
			);
		}
		store.addresses.delete(address.AddressSid);
		return { AddressSid: address.AddressSid };
	});
}

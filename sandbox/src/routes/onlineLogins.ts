import type { FastifyInstance } from 'fastify';
import {
	applyMergePatch,
	checkPermissionOwnership,
	ErrorCodes,
	isMergePatchContentType,
	validateCreateOnlineLogin,
	validateUpdateOnlineLogin,
	type CreateOnlineLoginRequest,
	type OnlineLogin,
	type UpdateOnlineLoginRequest,
} from '../../../api';
import type { SandboxDeps } from '../deps';
import { fail, invalid, notFound } from '../http/apiError';
import { listPage } from '../http/listPage';
import { newSid } from '../state/ids';
import type { LoginRecord } from '../state/records';

type Params = { PropertySid: string; OnlineLoginSid: string };

function publicLogin(l: LoginRecord): OnlineLogin {
	return {
		OnlineLoginSid: l.OnlineLoginSid,
		Email: l.Email,
		Enabled: l.Enabled,
		Created: l.Created,
		FirstName: l.FirstName,
		LastName: l.LastName,
		Permissions: l.Permissions.map((p) => ({ ...p })),
	};
}

export function registerOnlineLogins(app: FastifyInstance, { store, clock }: SandboxDeps): void {
	app.post<{ Params: Params }>('/Properties/:PropertySid/OnlineLogins', async (request) => {
		const property = store.ownProperty(request.account.AccountSid, request.params.PropertySid);
		if (!property) throw notFound(`Property ${request.params.PropertySid}`);
		const violations = validateCreateOnlineLogin(request.body);
		if (violations.length > 0) throw invalid(violations);
		const body = request.body as CreateOnlineLoginRequest;
		if (store.emailTaken(property.AccountSid, body.Email)) {
			throw fail(
				400,
				ErrorCodes.DuplicateEmail,
				`A login with e-mail ${body.Email} already exists in this account.`,
				'Email',
			);
		}
		const login: LoginRecord = {
			OnlineLoginSid: newSid(),
			AccountSid: property.AccountSid,
			Email: body.Email,
			Password: body.Password,
			Enabled: body.Enabled ?? false,
			Created: clock.now(),
			FirstName: body.FirstName,
			LastName: body.LastName,
			Permissions: [{ PropertySid: property.PropertySid, Scopes: body.Scopes }],
		};
		store.logins.set(login.OnlineLoginSid, login);
		return { OnlineLogin: publicLogin(login) };
	});

	app.get<{ Querystring: Record<string, unknown> }>('/OnlineLogins', async (request) => {
		const { page, TotalCount, NextPageToken } = listPage(
			store.loginsOf(request.account.AccountSid),
			request.query ?? {},
		);
		return { OnlineLogins: page.map(publicLogin), TotalCount, NextPageToken };
	});

	app.get<{ Params: Params }>('/OnlineLogins/:OnlineLoginSid', async (request) => {
		const login = store.ownLogin(request.account.AccountSid, request.params.OnlineLoginSid);
		if (!login) throw notFound(`OnlineLogin ${request.params.OnlineLoginSid}`);
		return { OnlineLogin: publicLogin(login) };
	});

	app.patch<{ Params: Params }>('/OnlineLogins/:OnlineLoginSid', async (request, reply) => {
		const accountSid = request.account.AccountSid;
		const login = store.ownLogin(accountSid, request.params.OnlineLoginSid);
		if (!login) throw notFound(`OnlineLogin ${request.params.OnlineLoginSid}`);
		if (!isMergePatchContentType(request.headers['content-type'])) {
			throw fail(
				400,
				ErrorCodes.UnsupportedMediaType,
				'A partial update needs Content-Type: application/merge-patch+json.',
			);
		}
		const violations = validateUpdateOnlineLogin(request.body);
		const patch = request.body as UpdateOnlineLoginRequest;
		if (violations.length === 0 && patch.Permissions) {
			violations.push(
				...checkPermissionOwnership('Permissions', patch.Permissions, {
					accountSid,
					ownsProperty: (sid) => !!store.ownProperty(accountSid, sid),
				}),
			);
		}
		if (violations.length > 0) throw invalid(violations);
		if (
			patch.Email !== undefined &&
			store.emailTaken(accountSid, patch.Email, login.OnlineLoginSid)
		) {
			throw fail(
				400,
				ErrorCodes.DuplicateEmail,
				`A login with e-mail ${patch.Email} already exists in this account.`,
				'Email',
			);
		}
		store.logins.set(login.OnlineLoginSid, applyMergePatch(login, patch));
		reply.code(204).send();
	});
}

import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import {
	apiRoot,
	basicAuthorization,
	isPlainObject,
	joinUrl,
	paths,
	readResponseStatus,
} from '../../../api';
import { checkBaseUrl, foreignAnswer, networkCode } from '../transport/foreignAnswer';

export interface ProbeAnswer {
	statusCode: number;
	headers?: IDataObject;
	body: unknown;
}

const UNAUTHORIZED =
	'CloudTel refused the Account SID and Auth Token (401). Check both, and that the Base URL points at the right environment.';

function contentType(headers: IDataObject | undefined): unknown {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === 'content-type');
	return key === undefined ? undefined : headers?.[key];
}

/** What a page of online logins looks like: the answer the test asks for. */
function isLoginPage(body: unknown): boolean {
	return isPlainObject(body) && Array.isArray(body.OnlineLogins);
}

/**
 * Judges the answer to `GET /v2/OnlineLogins?Results_Count=1`: it passes only when it is
 * CloudTel's (JSON holding an OnlineLogins list), so that another web server answering 200
 * (n8n itself on :5678 answers every GET with its editor's page) does not pass for CloudTel.
 */
export function judgeProbe(answer: ProbeAnswer, baseUrl: string): INodeCredentialTestResult {
	const { statusCode, body } = answer;
	const hint = checkBaseUrl(baseUrl);
	if (statusCode === 401) return { status: 'Error', message: UNAUTHORIZED };
	const foreign = foreignAnswer(statusCode, contentType(answer.headers), body);
	if (foreign !== undefined)
		return { status: 'Error', message: `The Base URL answered ${foreign}: ${hint}.` };
	const refused = readResponseStatus(body);
	if (statusCode === 404) {
		return {
			status: 'Error',
			message: `No CloudTel API at this Base URL (404${refused ? ` ${refused.ErrorCode}` : ''}): ${hint}, without /v2.`,
		};
	}
	if (statusCode >= 200 && statusCode < 300) {
		if (isLoginPage(body))
			return {
				status: 'OK',
				message: 'Connection tested successfully: CloudTel answered with this account',
			};
		const got =
			typeof body === 'string'
				? `text ("${body.trim().slice(0, 60)}")`
				: 'JSON without a list of online logins';
		return {
			status: 'Error',
			message: `The Base URL answered HTTP ${statusCode} with ${got}, not CloudTel's API: ${hint}.`,
		};
	}
	if (refused)
		return {
			status: 'Error',
			message: `CloudTel answered HTTP ${statusCode}, ${refused.ErrorCode}: ${refused.Message}`,
		};
	return {
		status: 'Error',
		message: `The Base URL answered HTTP ${statusCode} without a CloudTel error, so it may not be CloudTel's API: ${hint}.`,
	};
}

/** The wording the node uses when nothing answers: the network code and the Base URL in use. */
export function unreachable(error: unknown, baseUrl: string): INodeCredentialTestResult {
	const code = networkCode(error) ?? (error as Error | undefined)?.message ?? 'no answer';
	return {
		status: 'Error',
		message: `Could not reach CloudTel (${code}): ${checkBaseUrl(baseUrl)}.`,
	};
}

/**
 * The credential's test, run by n8n when the credential is saved or retried (the node names
 * it in `testedBy`). A function rather than the credential's declarative `test`, whose
 * rules can match status codes but cannot tell CloudTel's JSON from another server's page,
 * and report a refused connection as a bare ECONNREFUSED.
 */
export async function cloudTelApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = String(data.baseUrl ?? '').trim();
	if (baseUrl === '')
		return {
			status: 'Error',
			message: 'The Base URL is empty: give the root of the CloudTel API your account uses.',
		};
	// The only HTTP helper n8n gives a credential test, in 1.x as in 2.x.
	const { helpers } = this;
	let answer: ProbeAnswer;
	try {
		answer = (await helpers.request({
			uri: joinUrl(apiRoot(baseUrl), paths.onlineLogins(), { Results_Count: 1 }),
			method: 'GET',
			headers: {
				Accept: 'application/json',
				Authorization: basicAuthorization(
					String(data.accountSid ?? ''),
					String(data.authToken ?? ''),
				),
			},
			json: true,
			resolveWithFullResponse: true,
			simple: false,
		})) as ProbeAnswer;
	} catch (error) {
		return unreachable(error, baseUrl);
	}
	return judgeProbe(answer, baseUrl);
}

import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { isPlainObject, joinUrl, workerApiPaths } from '../../../api';
import { foreignAnswer, networkCode } from '../../CloudTel/transport/foreignAnswer';
import { checkWorkerUrl, workerUrlProblem } from '../transport';

export interface WorkerProbeAnswer {
	statusCode: number;
	headers?: IDataObject;
	body: unknown;
}

function contentType(headers: IDataObject | undefined): unknown {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === 'content-type');
	return key === undefined ? undefined : headers?.[key];
}

/**
 * Judges the answer to `GET /api/campaigns`: it passes only when it is the worker's list of
 * campaigns, so another web server answering 200 does not pass for the worker.
 */
export function judgeWorkerProbe(
	answer: WorkerProbeAnswer,
	url: string,
): INodeCredentialTestResult {
	const { statusCode, body } = answer;
	const hint = checkWorkerUrl(url);
	if (statusCode === 401)
		return {
			status: 'Error',
			message: "The worker refused the API Token (401): it must be the worker's server.apiToken.",
		};
	const foreign = foreignAnswer(statusCode, contentType(answer.headers), body);
	if (foreign !== undefined)
		return {
			status: 'Error',
			message: `The Worker URL answered ${foreign.replace("CloudTel's API", "the worker's campaign API")}: ${hint}.`,
		};
	if (statusCode === 404) {
		return {
			status: 'Error',
			message: `No campaign API at this URL (404): the worker serves /api only when its config has server.apiToken; ${hint}.`,
		};
	}
	if (statusCode >= 200 && statusCode < 300) {
		if (isPlainObject(body) && Array.isArray(body.campaigns))
			return {
				status: 'OK',
				message: 'Connection tested successfully: the CloudTel worker answered',
			};
		return {
			status: 'Error',
			message: `The Worker URL answered HTTP ${statusCode} without a list of campaigns, so it is not the worker's campaign API: ${hint}.`,
		};
	}
	return { status: 'Error', message: `The Worker URL answered HTTP ${statusCode}: ${hint}.` };
}

/** The credential's test, run by n8n when a CloudTel Worker API credential is saved. */
export async function cloudTelWorkerApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const url = String(data.url ?? '').trim();
	const problem = workerUrlProblem(url);
	if (problem) return { status: 'Error', message: problem };
	// The only HTTP helper n8n gives a credential test, in 1.x as in 2.x.
	const { helpers } = this;
	let answer: WorkerProbeAnswer;
	try {
		answer = (await helpers.request({
			uri: joinUrl(url, workerApiPaths.campaigns()),
			method: 'GET',
			headers: {
				Accept: 'application/json',
				Authorization: `Bearer ${String(data.apiToken ?? '')}`,
			},
			json: true,
			resolveWithFullResponse: true,
			simple: false,
		})) as WorkerProbeAnswer;
	} catch (error) {
		const code = networkCode(error) ?? (error as Error | undefined)?.message ?? 'no answer';
		return {
			status: 'Error',
			message: `Could not reach the CloudTel worker (${code}): ${checkWorkerUrl(url)}.`,
		};
	}
	return judgeWorkerProbe(answer, url);
}

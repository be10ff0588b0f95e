import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { requests } from '../../../api';
import { readLoginPage } from '../actions/onlineLogin/loginPage';
import { apiRequest } from '../transport';

const PAGE_SIZE = 100;

function label(login: Record<string, unknown>): string {
	const name = [login.FirstName, login.LastName]
		.filter((p) => typeof p === 'string' && p !== '')
		.join(' ');
	return name
		? `${name} <${String(login.Email ?? '')}>`
		: String(login.Email ?? login.OnlineLoginSid);
}

/** The account's logins, a page at a time; the filter matches name or e-mail. */
export async function searchOnlineLogins(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const params = paginationToken
		? { Results_Count: PAGE_SIZE, PageToken: paginationToken }
		: { Results_Count: PAGE_SIZE, Results_Skip: 0 };
	const page = readLoginPage(await apiRequest.call(this, requests.listOnlineLogins(params)));
	const needle = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = page.logins
		.map((login) => ({ name: label(login), value: String(login.OnlineLoginSid ?? '') }))
		.filter(
			(item) => item.value !== '' && (needle === '' || item.name.toLowerCase().includes(needle)),
		);
	return { results, paginationToken: page.nextPageToken || undefined };
}

import type { z } from 'zod';
import { MAX_PAGE_BODY_BYTES, type WorkerApiErrorCode } from '../../../../api';
import {
	csvAnswer,
	deletedAnswer,
	evidenceAnswer,
	listAnswer,
	nameParams,
	pageAnswer,
	pageBody,
	pageParams,
	previewAnswer,
	priceQuery,
	reportAnswer,
	reportQuery,
	settingsBody,
	startBody,
	statusAnswer,
} from './apiSchemas';

/** Bodies other than a page's or a CSV's are settings and the like: small. */
export const SMALL_BODY_BYTES = 64 * 1024;

export interface ApiRoute {
	id:
		| 'openapi'
		| 'listCampaigns'
		| 'putCampaign'
		| 'getCampaign'
		| 'deleteCampaign'
		| 'putPage'
		| 'putCsv'
		| 'startCampaign'
		| 'pauseCampaign'
		| 'resumeCampaign'
		| 'cancelCampaign'
		| 'getReport'
		| 'getEvidence'
		| 'getPreview';
	method: 'GET' | 'PUT' | 'POST' | 'DELETE';
	/** Under /api, in fastify's form (`:name`). */
	path: string;
	summary: string;
	params?: z.ZodObject;
	query?: z.ZodObject;
	body?: z.ZodType;
	/** A CSV body (text/csv), streamed; JSON otherwise. */
	csv?: boolean;
	bodyLimit?: number;
	answers: Record<number, { description: string; schema?: z.ZodType }>;
	/** The refusals this route may answer, besides unauthorized. */
	errors: WorkerApiErrorCode[];
}

const STATUS = (description: string) => ({ description, schema: statusAnswer });

/** Every route of the campaign API: the plugin registers these, and the OpenAPI document describes these. */
export const API_ROUTES: readonly ApiRoute[] = [
	{
		id: 'openapi',
		method: 'GET',
		path: '/openapi.json',
		summary: 'This document (OpenAPI 3.1).',
		answers: { 200: { description: 'The OpenAPI document.' } },
		errors: [],
	},
	{
		id: 'listCampaigns',
		method: 'GET',
		path: '/campaigns',
		summary: 'Every API campaign, by name, with its state.',
		answers: { 200: { description: 'The campaigns.', schema: listAnswer } },
		errors: [],
	},
	{
		id: 'putCampaign',
		method: 'PUT',
		path: '/campaigns/:name',
		summary:
			'Creates a campaign with its settings; the same settings again are harmless. Of a draft or a paused campaign, maxCost may change: higher, it resumes one its spend cap paused.',
		params: nameParams,
		body: settingsBody,
		answers: { 201: STATUS('Created.'), 200: STATUS('It existed with the same settings.') },
		errors: ['invalid', 'conflict', 'too_large', 'unsupported_media_type'],
	},
	{
		id: 'getCampaign',
		method: 'GET',
		path: '/campaigns/:name',
		summary: 'The status of a campaign: state, settings and counts.',
		params: nameParams,
		answers: { 200: STATUS('The campaign.') },
		errors: ['not_found'],
	},
	{
		id: 'deleteCampaign',
		method: 'DELETE',
		path: '/campaigns/:name',
		summary:
			'Deletes a draft (its settings and recipients) or an ended campaign (with its ledger); one sending or paused is cancelled first.',
		params: nameParams,
		answers: { 200: { description: 'Deleted.', schema: deletedAnswer } },
		errors: ['not_found', 'conflict'],
	},
	{
		id: 'putPage',
		method: 'PUT',
		path: '/campaigns/:name/pages/:page',
		summary: 'Adds a page of up to 10,000 recipients, idempotently by page number.',
		params: pageParams,
		body: pageBody,
		bodyLimit: MAX_PAGE_BODY_BYTES,
		answers: {
			200: {
				description: 'Stored (or stored before with the same content: unchanged).',
				schema: pageAnswer,
			},
		},
		errors: [
			'invalid',
			'not_found',
			'page_conflict',
			'started',
			'conflict',
			'too_large',
			'too_many_columns',
			'unsupported_media_type',
		],
	},
	{
		id: 'putCsv',
		method: 'PUT',
		path: '/campaigns/:name/csv',
		summary:
			"Gives a campaign's recipients as one CSV (text/csv), streamed; read as `cloudtel campaign run` reads one.",
		params: nameParams,
		csv: true,
		answers: { 200: { description: 'Stored (or stored before: unchanged).', schema: csvAnswer } },
		errors: [
			'invalid',
			'not_found',
			'page_conflict',
			'started',
			'conflict',
			'too_large',
			'unsupported_media_type',
		],
	},
	{
		id: 'startCampaign',
		method: 'POST',
		path: '/campaigns/:name/start',
		summary:
			'Starts sending: paced, suppressed, crash-safe, independent of the caller from now on.',
		params: nameParams,
		body: startBody,
		answers: { 202: STATUS('Started.'), 200: STATUS('It had started before.') },
		errors: ['invalid', 'not_found', 'pages_missing', 'unsupported_media_type'],
	},
	{
		id: 'pauseCampaign',
		method: 'POST',
		path: '/campaigns/:name/pause',
		summary: 'Pauses sending after the batches in flight.',
		params: nameParams,
		answers: { 200: STATUS('Paused.') },
		errors: ['not_found', 'conflict'],
	},
	{
		id: 'resumeCampaign',
		method: 'POST',
		path: '/campaigns/:name/resume',
		summary: 'Resumes a paused campaign.',
		params: nameParams,
		answers: { 200: STATUS('Sending again.') },
		errors: ['not_found', 'conflict'],
	},
	{
		id: 'cancelCampaign',
		method: 'POST',
		path: '/campaigns/:name/cancel',
		summary: 'Cancels the recipients not sent yet.',
		params: nameParams,
		answers: { 200: STATUS('Cancelled.') },
		errors: ['not_found', 'conflict'],
	},
	{
		id: 'getReport',
		method: 'GET',
		path: '/campaigns/:name/report',
		summary:
			'The report: the JSON of `cloudtel campaign report --json`; with notSentLimit, a page of the recipients not sent.',
		params: nameParams,
		query: reportQuery,
		answers: { 200: { description: 'The report.', schema: reportAnswer } },
		errors: ['not_found', 'conflict', 'invalid'],
	},
	{
		id: 'getEvidence',
		method: 'GET',
		path: '/campaigns/:name/evidence',
		summary:
			"The evidence, the JSON of `cloudtel campaign evidence --json`: each recipient's consent, sending, receipt, replies, opt-out, and whether anything went after an opt-out.",
		params: nameParams,
		answers: { 200: { description: 'The evidence.', schema: evidenceAnswer } },
		errors: ['not_found', 'conflict'],
	},
	{
		id: 'getPreview',
		method: 'GET',
		path: '/campaigns/:name/preview',
		summary:
			'The dry run of the recipients as they stand: counts, segments, cost, the first problems.',
		params: nameParams,
		query: priceQuery,
		answers: { 200: { description: 'The preview.', schema: previewAnswer } },
		errors: ['not_found', 'pages_missing', 'invalid'],
	},
];

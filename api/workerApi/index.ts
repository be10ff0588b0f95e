// The worker's campaign API (/api/...): its shapes and the checks both the worker and the
// n8n nodes make. No imports from outside api/.
export * from './problem';
export * from './campaignName';
export * from './campaignRate';
export * from './frequencyCap';
export * from './campaignSettings';
export * from './duration';
export * from './recipientPage';
export * from './campaignStatus';
export * from './campaignPreview';
export * from './apiError';
export * from './campaignEvent';
export * from './routes';

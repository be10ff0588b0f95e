/** The campaign API's token in tests, for both rigs: the worker's (apiRig.ts) and ApiUnderTest in process (apiHarness.ts). */
export const API_TOKEN = 'api-token-0123456789abcdef';

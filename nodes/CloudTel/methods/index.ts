export * as listSearch from './listSearch';
export { cloudTelApiTest } from './credentialTest';

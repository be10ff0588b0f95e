export { cloudTelWorkerApiTest } from './credentialTest';

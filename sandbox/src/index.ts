export type { DemoAccount, RunningSandbox, SandboxOptions } from './options';
export { startSandbox } from './startSandbox';
export { runSandboxCli } from './cli';
export { FAILING_SUFFIXES } from './messaging/magicNumbers';
export { LEASE_POOL } from './messaging/leases';

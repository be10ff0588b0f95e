import { scenarios } from './retentionDaemon.scenarios';

// One part of retentionDaemon.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres');

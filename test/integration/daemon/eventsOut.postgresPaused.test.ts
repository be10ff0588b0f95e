import { scenarios } from './eventsOut.scenarios';

// One part of eventsOut.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres-paused');

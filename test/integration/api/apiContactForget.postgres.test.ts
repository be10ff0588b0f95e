import { scenarios } from './apiContactForget.scenarios';

// One part of apiContactForget.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres', 'first');

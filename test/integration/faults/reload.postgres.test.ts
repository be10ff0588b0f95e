import { scenarios } from './reload.scenarios';

// One part of reload.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres');

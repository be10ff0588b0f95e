import { scenarios } from './crash.scenarios';

// One part of crash.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('postgres');

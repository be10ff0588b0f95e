import { scenarios } from './workerApi.scenarios';

// One part of workerApi.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('sqlite', 'rest');

import { scenarios } from './postgresOutage.scenarios';

// One part of postgresOutage.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('replies');

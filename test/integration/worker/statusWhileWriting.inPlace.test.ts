import { scenarios } from './statusWhileWriting.scenarios';

// One part of statusWhileWriting.scenarios.ts per file: files run side by side, each within 60 s.
scenarios('in-place');

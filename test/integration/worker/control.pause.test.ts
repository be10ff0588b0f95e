import { scenarios } from './control.scenarios';

// One part per file: files run side by side, each well within 60 s.
scenarios('pause');

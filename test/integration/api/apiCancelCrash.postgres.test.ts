import { scenarios } from './apiCancelCrash.scenarios';

// One backend per file: files run side by side, each within 60 s.
scenarios('postgres');

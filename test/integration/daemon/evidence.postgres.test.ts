import { scenarios } from './evidence.scenarios';

// One backend per file: files run side by side, each well within 60 s.
scenarios('postgres');

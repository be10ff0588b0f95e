import { scenarios } from './erasure.scenarios';

// One backend per file: files run side by side, each well within 60 s.
scenarios('postgres');

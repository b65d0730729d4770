import { config } from 'zod';

// zod probes for `new Function` once (its JIT); our CSP has no 'unsafe-eval', so the probe only logs a
// violation. Jitless parsing needs no eval. Imported first by main.tsx, before any schema parses.
config({ jitless: true });

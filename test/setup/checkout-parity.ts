import { resolve } from 'node:path';

/**
 * How report.md's Reproduce lines start `parity` when the report is made from this checkout (tests run
 * in the repository root): node and the checkout's launcher by absolute path, which works from any folder.
 * Quoted as a shell word only where the checkout's path needs it.
 */
const launcher = resolve('bin/parity.js');
export const CHECKOUT_PARITY = `node ${/^[A-Za-z0-9_@%+=:,./-]+$/.test(launcher) ? launcher : `'${launcher.replace(/'/g, `'\\''`)}'`}`;

/**
 * Which servers a speech request may go to: loopback always; any other host only when the user named it
 * (`--allow-host HOST`, the studio's allowed hosts). A profile string alone never sends a prompt off the machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Undefined when the URL may be called, else why not (one line naming the host and the flag that allows it). */
export function refusedHost(url: string, allowHosts: readonly string[]): string | undefined {
  const host = new URL(url).hostname.toLowerCase();
  if (isLoopbackHost(host)) return undefined;
  if (allowHosts.some((h) => h.toLowerCase() === host)) return undefined;
  return `host "${host}" is not loopback and was not allowed: give --allow-host ${host} (the studio: add it to the allowed hosts) to send prompts to it`;
}

import type { z } from 'zod';

/** A zod error as one line: each issue's path and message, `; `-separated. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

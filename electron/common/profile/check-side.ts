import { isEndpointSide, parseEndpoint } from './endpoint-side.js';
import { checkProfile, ProfileSyntaxError, type ProfileIssue } from './parse-profile.js';

/** checkProfile for a comparison side: an engine profile, or an endpoint side (`endpoint=URL,…`, endpoint-side.ts). */
export function checkSide(text: string): { ok: true } | { ok: false; issue: ProfileIssue } {
  if (!isEndpointSide(text)) return checkProfile(text);
  try {
    parseEndpoint(text);
    return { ok: true };
  } catch (error) {
    if (error instanceof ProfileSyntaxError) return { ok: false, issue: error.issue };
    throw error;
  }
}

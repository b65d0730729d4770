/** What a vLLM-style server says about itself: the served model (GET /v1/models) and version (GET /version). */
export interface ServerInfo {
  model?: string;
  version?: string;
}

async function getJson(url: string, headers: Record<string, string>, ms: number): Promise<unknown> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(ms) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Asked before the speech request, each answer optional: a server
 * without these routes is still compared, its report saying nothing it did not say. `asked` is the model
 * the request named: it is reported when the server lists it, else what the server lists.
 */
export async function serverInfo(origin: string, headers: Record<string, string>, asked: string | undefined, ms = 5000): Promise<ServerInfo> {
  const [models, version] = await Promise.all([getJson(`${origin}/v1/models`, headers, ms), getJson(`${origin}/version`, headers, ms)]);
  const info: ServerInfo = {};
  const ids = Array.isArray((models as { data?: unknown })?.data)
    ? ((models as { data: unknown[] }).data.map((m) => (m as { id?: unknown }).id).filter((id) => typeof id === 'string') as string[])
    : [];
  if (ids.length > 0) info.model = asked !== undefined && ids.includes(asked) ? asked : ids.join(', ');
  const v = (version as { version?: unknown })?.version;
  if (typeof v === 'string') info.version = v;
  return info;
}

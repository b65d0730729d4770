/** Why a fetch failed, in words, from undici's error causes (Node 20's fetch). */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: string } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running on that port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the server closed the connection';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'response headers too large';
    default:
      // Node's fetch refuses the ports of the Fetch standard's "bad port" list (1, 6000, 10080, …).
      if (cause?.message === 'bad port') return 'the port is on the Fetch standard\'s blocked list ("bad port"): serve on another port (vLLM uses 8000, 8091, …)';
      return cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

/** The server's own message from an error body: OpenAI/vLLM `{error: {message}}`, FastAPI `{detail}`, or the text. */
export function serverMessage(text: string): string {
  const trimmed = text.trim();
  try {
    const json = JSON.parse(trimmed) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const m =
      typeof json.error === 'object' && json.error !== null && typeof json.error.message === 'string'
        ? json.error.message
        : typeof json.error === 'string'
          ? json.error
          : json.detail !== undefined
            ? typeof json.detail === 'string'
              ? json.detail
              : JSON.stringify(json.detail)
            : typeof json.message === 'string'
              ? json.message
              : undefined;
    if (m !== undefined) return oneLine(m);
  } catch {
    // not JSON: the text itself
  }
  return trimmed === '' ? '(empty body)' : oneLine(trimmed);
}

export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EEXIST: 'already exists',
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder',
  ENOTDIR: 'a parent is a file, not a folder',
  ELOOP: 'too many levels of symbolic links (a link loop?)',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'input/output error',
  ENXIO: 'no such device or address',
};

/**
 * A file-system error in words, for one-line messages: the errno code (`error.code`) as a phrase,
 * else the error's message. The raw Node message is avoided because it names temporary paths and the
 * syscall. Pure: it only reads `code` and `message`.
 */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && Object.hasOwn(REASONS, code)) return REASONS[code];
  return error instanceof Error ? error.message : String(error);
}

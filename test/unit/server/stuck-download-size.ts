import { readFileSync } from 'node:fs';

/** The largest buffer (bytes) Linux lets a TCP socket grow to, from /proc/sys/net/ipv4/tcp_{r,w}mem's third field. */
function maxSocketBuffer(kind: 'rmem' | 'wmem'): number {
  try {
    return Number(readFileSync(`/proc/sys/net/ipv4/tcp_${kind}`, 'utf8').trim().split(/\s+/)[2]) || 0;
  } catch {
    return 0;
  }
}

/**
 * A file size the loopback socket buffers cannot take in while the client reads nothing (the server's
 * send buffer plus the client's receive buffer, with 4 MiB to spare; at least 40 MiB), so a download of
 * it stays stuck mid-zip. Read from this machine, not assumed: larger buffers elsewhere would otherwise
 * let the whole zip through and the tests would no longer test what they say.
 */
export const STUCK_DOWNLOAD_BYTES = Math.max(40 << 20, maxSocketBuffer('rmem') + maxSocketBuffer('wmem') + (4 << 20));

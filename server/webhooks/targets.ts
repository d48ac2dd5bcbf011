// Where a web hook may send (issue 11, server-side request forgery): not to this machine, the site network or a cloud
// metadata address — unless the installation allows private targets (WEBHOOK_PRIVATE_TARGETS=allow; tests and e2e
// receivers listen on 127.0.0.1). Checked when a hook is saved (a literal address, or a name that resolves to one)
// and again before every delivery (a name may resolve elsewhere since). Names under the reserved .test, .example and
// .invalid domains are not looked up (they resolve nowhere public).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

const v4 = (ip: string) => ip.split('.').map(Number);

/** Loopback, private (RFC 1918, CGNAT, unique local), link-local (cloud metadata), unspecified or multicast. */
export function isPrivateAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) {
    const [a, b] = v4(ip);
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254)
      || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a >= 224;
  }
  if (kind === 6) {
    const x = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]);
    return x === '::' || x === '::1' || /^f[cd]/.test(x) || /^fe[89ab]/.test(x) || /^ff/.test(x);
  }
  return false;
}

export const PRIVATE_TARGET = 'must not point to this server, a private network or a link-local address';
const RESERVED = /\.(test|example|invalid)$/i;

/** Why `url` may not be a target (null: it may), resolving its host name with a time limit. */
export async function targetProblem(url: string, allowPrivate: boolean, timeoutMs = 2000): Promise<string | null> {
  if (allowPrivate) return null;
  let host: string;
  try { host = new URL(url).hostname.replace(/^\[|\]$/g, ''); } catch { return null; } // the URL check names that
  if (isIP(host)) return isPrivateAddress(host) ? PRIVATE_TARGET : null;
  if (/^localhost$|\.localhost$/i.test(host)) return PRIVATE_TARGET;
  if (RESERVED.test(host)) return null;
  const found = await Promise.race([
    lookup(host, { all: true }).catch(() => [] as { address: string }[]),
    new Promise<{ address: string }[]>((r) => setTimeout(() => r([]), timeoutMs).unref()),
  ]);
  return found.some((a) => isPrivateAddress(a.address)) ? PRIVATE_TARGET : null;
}

// Where a web hook may send (issues 11 and 27, server-side request forgery): not to this machine, the site network,
// a cloud metadata address or anything else that is not public unicast — unless the installation allows private
// targets (WEBHOOK_PRIVATE_TARGETS=allow; tests' and e2e receivers listen on 127.0.0.1).
//
// The address ranges are ipaddr.js's (range() must be 'unicast'), not a list of our own. An IPv6 address that carries
// an IPv4 one is judged by what it carries: IPv4-mapped, -translated and -compatible forms are refused outright (they
// are IPv4 written as IPv6), NAT64 (64:ff9b::/96), 6to4 and Teredo addresses are refused when the IPv4 address inside
// is not public, and the local-use NAT64 prefix 64:ff9b:1::/48 always.
//
// The check that counts is made when the socket connects (postToTarget): the host is looked up once, every address
// it gave is checked, and the socket is handed exactly those addresses by its `lookup` — there is no second lookup a
// rebinding name server could answer differently. No redirect is followed. The check on save (targetProblem) gives
// the person saving a hook an early answer; names that can only mean the inside (localhost., *.internal, *.local,
// one-label names …) are refused there and at delivery without being looked up.
import { lookup as systemLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Looks a host name up: every address it has (the system resolver by default; tests give their own). */
export type Resolve = (host: string) => Promise<ReadonlyArray<{ address: string; family?: number }>>;
export const systemResolve: Resolve = (host) => systemLookup(host, { all: true, verbatim: true });

export const PRIVATE_TARGET = 'must not point to this server, a private network or a link-local address';

/** A target refused by the guard; `reason` says which address or name and why. */
export class RefusedTarget extends Error {
  constructor(readonly reason: string) {
    super(`the target ${PRIVATE_TARGET} (${reason})`);
    this.name = 'RefusedTarget';
  }
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  carrierGradeNat: 'a carrier-grade NAT address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};
const COMPATIBLE = ipaddr.parseCIDR('::/96'); // IPv4-compatible (deprecated, RFC 4291); ipaddr.js names only :: and ::1 in it
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** Why this IPv4 address is not public unicast (null: it is). */
function v4Problem(a: ipaddr.IPv4, within?: string): string | null {
  const range = a.range();
  if (range === 'unicast') return null;
  return `${a.toString()}${within ? ` inside ${within}` : ''} is ${RANGE_WORDS[range] ?? `not a public address (${range})`}`;
}

/** Why a connection to `ip` (a literal IPv4 or IPv6 address, as a URL or a resolver gives it) is refused; null: it may be made. */
export function addressProblem(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  if (!isIP(bare.replace(/%.*$/, ''))) return `${ip} is not an IP address`;
  const a = ipaddr.parse(bare);
  if (a.kind() === 'ipv4') return v4Problem(a as ipaddr.IPv4);
  const six = a as ipaddr.IPv6;
  const text = six.toString(),
    range = six.range() as string,
    p = six.parts;
  if (range === 'ipv4Mapped' || range === 'rfc6145') return `${text} is ${RANGE_WORDS[range]} (IPv4 written as IPv6)`;
  if (range === 'unicast' && six.match(COMPATIBLE)) return `${text} is an IPv4-compatible address (IPv4 written as IPv6)`;
  if (range === 'rfc6052') return six.match(NAT64_WELL_KNOWN) ? v4Problem(v4(p[6], p[7]), text) : `${text} is a local-use NAT64 address`;
  if (range === '6to4') return v4Problem(v4(p[1], p[2]), text);
  if (range === 'teredo') return v4Problem(v4(p[2], p[3]), text) ?? v4Problem(v4(~p[6] & 0xffff, ~p[7] & 0xffff), text);
  if (range === 'unicast') return null;
  return `${text} is ${RANGE_WORDS[range] ?? `not a public address (${range})`}`;
}

// Names that only mean this machine or the inside of a site: localhost and its subdomains (RFC 6761), the private-use
// .internal (cloud metadata: metadata.google.internal), mDNS .local, .localdomain, home networks' .home.arpa and
// .lan, and one-label names (completed by the resolver's search list to a site-local host).
const INSIDE_NAME = /(^|\.)(localhost|internal|local|localdomain|home\.arpa|lan|intranet|corp)$/;

/** Why a host name may not be a target before it is looked up (null: look it up). A trailing dot is the same name. */
export function nameProblem(host: string): string | null {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (!name) return `"${host}" is not a host name`;
  if (INSIDE_NAME.test(name)) return `${host} names this machine or a private network`;
  if (!name.includes('.')) return `${host} is a one-label name (the site's own network)`;
  return null;
}

const RESERVED = /\.(test|example|invalid)\.?$/i;
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(what), { code: 'ETIMEOUT' })), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The connect-time check: the addresses a connection to `url` may use — its literal address, or every address its
 * host name resolves to (one lookup) — or RefusedTarget when the name or any of the addresses is not public.
 */
export async function checkedAddresses(url: URL, resolve: Resolve = systemResolve, timeoutMs = 5000): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const host = hostOf(url);
  if (isIP(host)) {
    const problem = addressProblem(host);
    if (problem) throw new RefusedTarget(problem);
    return [{ address: host, family: isIP(host) as 4 | 6 }];
  }
  const named = nameProblem(host);
  if (named) throw new RefusedTarget(named);
  const found = await withTimeout(resolve(host), timeoutMs, `${host} was not resolved within ${timeoutMs} ms`);
  if (!found.length) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  for (const { address } of found) {
    const problem = addressProblem(address);
    if (problem) throw new RefusedTarget(`${host}: ${problem}`);
  }
  return found.map(({ address }) => ({ address, family: isIP(address) as 4 | 6 }));
}

/**
 * Why `url` may not be a target, checked when a hook is saved (null: it may; a name that does not resolve within
 * the time limit is let through — the connect-time check decides at delivery). Names under the reserved .test,
 * .example and .invalid domains are not looked up (they resolve nowhere public).
 */
export async function targetProblem(url: string, allowPrivate: boolean, resolve: Resolve = systemResolve, timeoutMs = 2000): Promise<string | null> {
  if (allowPrivate) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  } // the URL check names that
  if (!isIP(hostOf(u)) && !nameProblem(hostOf(u)) && RESERVED.test(hostOf(u))) return null;
  try {
    await checkedAddresses(u, resolve, timeoutMs);
    return null;
  } catch (e) {
    return e instanceof RefusedTarget ? PRIVATE_TARGET : null;
  }
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** For the whole exchange: lookup, connect, answer. */
  timeoutMs: number;
  /** WEBHOOK_PRIVATE_TARGETS=allow: no address is refused (the lookup is still the one the socket uses). */
  allowPrivate: boolean;
  resolve?: Resolve;
  /** The most of the answer's body read (the rest is not waited for). */
  maxResponseChars: number;
}

/**
 * POSTs `body` to `url` through the connect-time guard: the socket connects only to an address that was checked,
 * redirects are not followed (a 3xx is the answer). Throws RefusedTarget before any socket is opened when the target
 * is refused; a timeout is an Error named TimeoutError.
 */
export async function postToTarget(url: string, o: PostOptions): Promise<{ status: number; response: string; headers: IncomingHttpHeaders }> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RefusedTarget(`${u.protocol} is not http or https`);
  const deadline = Date.now() + o.timeoutMs;
  const resolve = o.resolve ?? systemResolve;
  const addresses = o.allowPrivate
    ? isIP(hostOf(u))
      ? []
      : (await withTimeout(resolve(hostOf(u)), o.timeoutMs, `${hostOf(u)} was not resolved within ${o.timeoutMs} ms`)).map(({ address }) => ({
          address,
          family: isIP(address) as 4 | 6,
        }))
    : await checkedAddresses(u, resolve, o.timeoutMs);
  // The socket's own lookup: hands back the addresses checked above, never asks the resolver again.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (!addresses.length) {
      callback(Object.assign(new Error(`${hostOf(u)} has no address`), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (!usable.length) {
      callback(Object.assign(new Error(`${hostOf(u)} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    if (options.all) (callback as unknown as (e: null, all: typeof usable) => void)(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
  return new Promise((resolvePromise, reject) => {
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      u,
      { method: 'POST', agent: false, lookup: pinned, headers: { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) } },
      (res) => {
        let response = '';
        res.setEncoding('utf8');
        const finish = () => {
          clearTimeout(timer);
          resolvePromise({ status: res.statusCode ?? 0, response: response.slice(0, o.maxResponseChars), headers: res.headers });
        };
        res.on('data', (chunk: string) => {
          response += chunk;
          if (response.length >= o.maxResponseChars) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error(`No answer within ${o.timeoutMs} ms`), { name: 'TimeoutError' })),
      Math.max(0, deadline - Date.now()),
    );
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(o.body);
  });
}

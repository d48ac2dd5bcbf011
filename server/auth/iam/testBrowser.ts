// A browser for the IAM tests (issue 49): cookies kept per origin, redirects not followed, so each hop between
// Gatehouse and a provider on loopback can be looked at (and replayed).
export class Browser {
  jar = new Map<string, Map<string, string>>();
  cookieFor(url: string) {
    const j = this.jar.get(new URL(url).origin);
    return j ? [...j].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
  keep(url: string, res: Response) {
    const origin = new URL(url).origin;
    const j = this.jar.get(origin) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      j.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    this.jar.set(origin, j);
  }
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieFor(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.keep(url, res);
    return res;
  }
}

/** From Gatehouse's OIDC start through oidc-provider's sign-in form to its redirect back to `base` (not followed). */
export async function throughOidcProvider(b: Browser, base: string, start: string, login: string): Promise<string> {
  let res = await b.go(base + start);
  if (res.status !== 302) throw new Error(`start: ${res.status} ${await res.text()}`);
  let url = new URL(res.headers.get('location')!, base).href;
  for (let hops = 0; hops < 12; hops++) {
    if (url.startsWith(base)) return url;
    res = await b.go(url);
    if (res.status === 200 && /\/interaction\//.test(url)) {
      res = await b.go(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }),
      });
    }
    if (res.status !== 302 && res.status !== 303) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    url = new URL(res.headers.get('location')!, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

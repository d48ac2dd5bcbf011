// A GET as a bench's client makes it: the bearer token, the answer's text, an error for anything but 200. Its own
// module, free of server imports, so the rest bench's operator worker (bench/restOperators.ts) loads it cheaply.
export async function getText(base: string, path: string, token: string): Promise<string> {
  const r = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${text.slice(0, 200)}`);
  return text;
}

// A software WebAuthn authenticator for the server tests of passkeys (issue 49): an ES256 key pair per credential
// (node:crypto), "none" attestation, a signature counter it moves on at each use. Test code only: the server checks
// what it makes with @simplewebauthn/server, as it checks a browser's; chromium's virtual authenticator covers the
// browser side (e2e/mfa.spec.ts).
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));
const sha = (b: Uint8Array | string) => new Uint8Array(createHash('sha256').update(b).digest());
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

export class SoftAuthenticator {
  readonly id = randomBytes(16);
  readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;
  /** The account's handle the server gave at registration, kept with the credential (a discoverable one, a passkey). */
  userHandle: string | null = null;
  /** Whether it verifies the person (a PIN or a fingerprint): the UV flag of what it signs. */
  verifies = true;
  constructor(readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }
  get credentialId() {
    return b64u(this.id);
  }
  private clientData(type: string, challenge: string) {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }
  private rpIdHash() {
    return sha(new URL(this.origin).hostname);
  }
  /** navigator.credentials.create for the server's options: the JSON @simplewebauthn/browser would send. */
  register(options: { challenge: string; user?: { id?: string } }) {
    this.userHandle = options.user?.id ?? null;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(this.publicJwk.x)],
      [-3, isoBase64URL.toBuffer(this.publicJwk.y)],
    ]);
    const authData = concat(
      this.rpIdHash(),
      new Uint8Array([0x45]), // user present, user verified, attested credential data
      u32(this.counter),
      new Uint8Array(16),
      new Uint8Array([0, this.id.length]),
      this.id,
      isoCBOR.encode(cose),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }
  /** navigator.credentials.get for the server's options (the counter moves on unless `keepCounter`). */
  assert(options: { challenge: string }, keepCounter = false) {
    if (!keepCounter) this.counter++;
    const authData = concat(this.rpIdHash(), new Uint8Array([this.verifies ? 0x05 : 0x01]), u32(this.counter));
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', concat(authData, sha(clientDataJSON)), this.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(new Uint8Array(signature)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}

/** A server the helpers below talk to (server/testkit.ts's TestServer). */
interface Caller {
  base: string;
  call: (method: string, path: string, opts?: { token?: string; body?: unknown }) => Promise<{ status: number; body: any }>;
}

/** Registers a new passkey for the signed-in session (confirmed with the password); the authenticator and the answer. */
export async function registerPasskey(s: Caller, token: string, password: string, name = 'Test key') {
  const key = new SoftAuthenticator(s.base);
  const init = await s.call('POST', '/idp/1.0/mfa/passkeys/init', { token, body: { password } });
  if (init.status !== 200) throw new Error(`passkey init: ${init.status} ${JSON.stringify(init.body)}`);
  const done = await s.call('POST', '/idp/1.0/mfa/passkeys', { token, body: { name, response: key.register(init.body) } });
  return { key, done };
}

/** A sign-in with a passkey alone (on the sign-in page of `client`, a code, when given): the answer. */
export async function passwordless(s: Caller, key: SoftAuthenticator, client?: string) {
  const options = await s.call('POST', '/idp/1.0/login/passkey/init', { body: client ? { client } : {} });
  if (options.status !== 200) throw new Error(`passkey sign-in options: ${options.status} ${JSON.stringify(options.body)}`);
  const answer = key.assert(options.body);
  return { options: options.body, answer, r: await s.call('POST', '/idp/1.0/login/passkey', { body: { ...(client ? { client } : {}), response: answer } }) };
}

/** A sign-in with the password and then the passkey; the session's token. */
export async function signInWithPasskey(s: Caller, username: string, password: string, key: SoftAuthenticator): Promise<string> {
  const first = await s.call('POST', '/idp/1.0/login', { body: { username, password } });
  const options = await s.call('POST', '/idp/1.0/login/assertion/init', { body: { ticket: first.body.ticket } });
  const r = await s.call('POST', '/idp/1.0/login/assertion', { body: { ticket: first.body.ticket, response: key.assert(options.body) } });
  if (r.status !== 200) throw new Error(`passkey sign-in: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}

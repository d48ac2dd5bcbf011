// Gatehouse's key pair as a SAML service provider (issue 49): it signs the AuthnRequests and logout messages of the
// providers that ask for signed requests, and opens the assertions a provider encrypts for it. One pair for the
// installation, made on first need with node:crypto's WebCrypto and a self-signed certificate by @peculiar/x509 (the
// metadata publishes the certificate: `GET /idp/1.0/saml/metadata?provider=idp-<id>`). The private key is kept sealed
// in server_secrets (./sealed.ts: AES-256-GCM under a key derived from the installation secret), never answered; a pair
// that no longer opens (JWT_SECRET changed) is replaced by a new one, whose certificate must be given to the providers
// again (they read the metadata).
import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { Db } from '../../db/db';
import { keepSecret, secret } from '../../db/queries/accounts';
import { replaceSecret } from '../../db/queries/saml';
import { open, seal } from './sealed';

export interface SpKeys {
  /** PEM (PKCS#8), for node-saml's privateKey and decryptionPvk. */
  privateKey: string;
  /** PEM certificate of its public half, published in the metadata. */
  certificate: string;
}

const NAME = 'saml-sp-keys';
const PURPOSE = 'server_secrets.saml-sp-keys';
const YEARS = 10;

async function makeKeys(): Promise<SpKeys> {
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const now = new Date();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: `01${randomBytes(8).toString('hex')}`,
      name: 'CN=Gatehouse SAML service provider',
      notBefore: now,
      notAfter: new Date(now.getTime() + YEARS * 365 * 86_400_000),
      signingAlgorithm: alg,
      keys,
      extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true)],
    },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificate: cert.toString('pem'),
  };
}

async function opened(db: Db, stored: string | null): Promise<SpKeys | null> {
  if (!stored) return null;
  try {
    const { sealed, certificate } = JSON.parse(stored) as { sealed: string; certificate: string };
    const privateKey = await open(db, sealed, PURPOSE);
    return privateKey && certificate ? { privateKey, certificate } : null;
  } catch {
    return null;
  }
}

/** The installation's service provider keys, made (and sealed) on first need; two servers starting agree on one pair. */
export async function spKeys(db: Db): Promise<SpKeys> {
  const stored = await secret(db, NAME);
  const have = await opened(db, stored);
  if (have) return have;
  const fresh = await makeKeys();
  const value = JSON.stringify({ sealed: await seal(db, fresh.privateKey, PURPOSE), certificate: fresh.certificate });
  const kept = stored ? await replaceSecret(db, NAME, stored, value) : await keepSecret(db, NAME, value);
  const out = await opened(db, kept);
  if (!out) throw new Error('the SAML service provider keys could not be kept');
  return out;
}

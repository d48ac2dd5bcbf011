// Issues a Gatehouse license key signed with the DEVELOPMENT private key (demo and test licenses only; a
// production key is held offline and never in the repository). The server verifies with the public key in
// server/resources/licenses.ts.
//   npx tsx scripts/issue-license.ts --licensee "Northwind demo" --identities 1000 --doors 50 --readers 100 --operators 20 --valid-to 2030-12-31 [--client NORTHWIND] [--modules access,visitors]
import { createPrivateKey, sign } from 'node:crypto';

export const DEV_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIFlmY92KPymHHctyNjAXh7CCPzSsWR81rlv0GNoo1moO
-----END PRIVATE KEY-----
`;

export interface LicensePayload {
  v: 1;
  licensee: string;
  client: string;
  modules: string[];
  seats: { identities: number; doors: number; readers: number; operators: number };
  validTo: string;
}

const b64url = (b: Buffer) => b.toString('base64url');
export function issueLicense(p: LicensePayload, privateKeyPem = DEV_PRIVATE_KEY): string {
  const body = b64url(Buffer.from(JSON.stringify(p)));
  const sig = sign(null, Buffer.from(body), createPrivateKey(privateKeyPem));
  return `GH1.${body}.${b64url(sig)}`;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
if (process.argv[1] && /issue-license/.test(process.argv[1])) {
  console.log(
    issueLicense({
      v: 1,
      licensee: arg('licensee', 'Gatehouse demo'),
      client: arg('client', '*'),
      modules: arg('modules', 'access,visitors,monitor,reports').split(','),
      seats: {
        identities: Number(arg('identities', '250000')),
        doors: Number(arg('doors', '500')),
        readers: Number(arg('readers', '1000')),
        operators: Number(arg('operators', '100')),
      },
      validTo: arg('valid-to', '2030-12-31'),
    }),
  );
}

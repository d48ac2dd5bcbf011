// `npm run api:client`: writes the TypeScript client integrators use (clients/typescript/) from the API description
// the routes generate (server/openapi): the document itself (openapi.json) and its types (schema.ts, by
// openapi-typescript). clients/typescript/index.ts, the small typed fetch over them (openapi-fetch), is not generated.
// clients/typescript/client.test.ts fails when the written files differ from what this build would write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiDocument } from '../server/openapi/document';
import { clientFiles } from '../clients/typescript/generate';

const dir = join(import.meta.dirname, '..', 'clients', 'typescript');
const files = await clientFiles(await apiDocument());
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
console.log(`wrote ${Object.keys(files).join(', ')} to clients/typescript/`);
process.exit(0);

// What the document repeats, named once in `components` and referred to: every route's refusals and the x-tenant-id
// header, and each catalogue resource's row and input, which its list, record, add, change and actions answer or take. Matched by
// content, so a route that builds its own copy of the struct (server/crud) refers to the same name.
import { CATALOGUE, TENANT_HEADER, inputSchema, rowSchema } from '../../contract';
import { jsonSchemaOf } from './jsonSchema';

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The refusals every route may answer, named once in components.responses. */
const REFUSALS: Record<string, string> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict' };

/** The catalogue's rows (`Door`…) and inputs (`DoorInput`…) as JSON Schema, by name. */
function catalogueSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of CATALOGUE) {
    const name = pascal(d.label.one.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()));
    out[name] = jsonSchemaOf(rowSchema(d));
    out[`${name}Input`] = jsonSchemaOf(inputSchema(d));
  }
  return out;
}

/** `document` with every schema equal to one of `named` (or the catalogue's) replaced by a reference to it. */
export function sharedSchemas(document: Record<string, any>, named: Record<string, unknown>): Record<string, any> {
  const all = { ...catalogueSchemas(), ...named };
  const byText = new Map<string, string>();
  for (const [name, schema] of Object.entries(all)) if (!byText.has(JSON.stringify(schema))) byText.set(JSON.stringify(schema), name);
  const used: Record<string, unknown> = {};
  // a response's or body's schema, and a page's items, are where a shared schema appears
  const ref = (schema: any): any => {
    if (!schema || typeof schema !== 'object') return schema;
    const { description, ...rest } = schema as Record<string, unknown>;
    const name = byText.get(JSON.stringify(schema)) ?? byText.get(JSON.stringify(rest));
    if (name) {
      used[name] = all[name];
      return name && description !== undefined && !byText.has(JSON.stringify(schema))
        ? { description, $ref: `#/components/schemas/${name}` }
        : { $ref: `#/components/schemas/${name}` };
    }
    const items = schema.properties?.items?.items;
    if (items) {
      const inner = ref(items);
      if (inner !== items) return { ...schema, properties: { ...schema.properties, items: { ...schema.properties.items, items: inner } } };
    }
    return schema;
  };
  const responses: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  for (const item of Object.values(document.paths ?? {}) as Array<Record<string, any>>) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object') continue;
      for (const [code, name] of Object.entries(REFUSALS)) {
        if (!op.responses?.[code]) continue;
        responses[name] ??= op.responses[code];
        op.responses[code] = { $ref: `#/components/responses/${name}` };
      }
      op.parameters = op.parameters?.map((p: { in: string; name: string }) => {
        if (p.in !== 'header' || p.name !== TENANT_HEADER) return p;
        parameters.TenantId ??= p;
        return { $ref: '#/components/parameters/TenantId' };
      });
      for (const content of [op.requestBody?.content, ...Object.values(op.responses ?? {}).map((r: any) => r?.content)]) {
        for (const media of Object.values(content ?? {}) as Array<Record<string, unknown>>) media.schema = ref(media.schema);
      }
    }
  }
  for (const r of Object.values(responses) as Array<Record<string, any>>)
    for (const media of Object.values(r.content ?? {}) as Array<Record<string, unknown>>) media.schema = ref(media.schema);
  document.components = {
    ...(document.components ?? {}),
    schemas: { ...(document.components?.schemas ?? {}), ...used },
    responses: { ...(document.components?.responses ?? {}), ...responses },
    parameters: { ...(document.components?.parameters ?? {}), ...parameters },
  };
  return document;
}

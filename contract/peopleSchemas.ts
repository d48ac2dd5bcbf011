// The identities' and visitors' schemas, derived from their declarations (contract/resources/identities.ts,
// visitors.ts). Issue 48: a module of their own, so the console's start, which reads none of them, does not load those
// declarations through contract/schemas.ts (the barrel names this module too: every import of them is unchanged).
import type { Infer } from './structs';
import { identitiesResource, inputSchema, listQuerySchema, rowSchema, visitorsResource } from './resources';

export const IdentityInput = inputSchema(identitiesResource);
export type IdentityInput = Infer<typeof IdentityInput>;
export const Identity = rowSchema(identitiesResource);
export type Identity = Infer<typeof Identity>;
export type Credential = Identity['credentials'][number];
/** GET identities: the list query with the declaration's sort allow-list and filters (status, division). */
export const IdentityListQuery = listQuerySchema(identitiesResource);

/** POST register: who came, whom they visit, for what and on which day (the badge is valid until its end). */
export const VisitorInput = inputSchema(visitorsResource);
export type VisitorInput = Infer<typeof VisitorInput>;
export const Visitor = rowSchema(visitorsResource);
export type Visitor = Infer<typeof Visitor>;
export const VisitorListQuery = listQuerySchema(visitorsResource);

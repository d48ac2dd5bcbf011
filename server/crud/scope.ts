// Which rows of a catalogue resource a request may see: the tenant, the divisions and the row families (server/crud).
export interface Scope {
  /** tenant: true → the selected client; 'self' → the tenants the user holds grants in. */
  clientId: number | null;
  tenants?: number[];
  /** the divisions of the user's grants for the action's code (division-scoped resources). */
  divisions?: number[];
  /** privileges.families: only rows whose column is one of these values (the families the user holds the code of). */
  rowValues?: { column: string; values: string[] };
  /** issue 50 (server/crud/scopes.ts): conditions the request is held to (a holder of only the own code: its own rows),
   *  the list scope a `?scope=` names, and the field a row such a holder adds must name them by. */
  bound?: Bound[];
  pick?: (name: string) => Bound | undefined;
  ownPerson?: { field: string; userId: number };
}
/** A condition over alias `t` that pushes its values onto the query's parameters. */
export type Bound = (params: unknown[]) => string;

// Which rows of a catalogue resource a request may see: the tenant, the divisions and the row families (server/crud).
export interface Scope {
  /** tenant: true → the selected client; 'self' → the tenants the user holds grants in. */
  clientId: number | null;
  tenants?: number[];
  /** the divisions of the user's grants for the action's code (division-scoped resources). */
  divisions?: number[];
  /** privileges.families: only rows whose column is one of these values (the families the user holds the code of). */
  rowValues?: { column: string; values: string[] };
}

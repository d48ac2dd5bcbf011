/** What is wrong with one field of a request: its path (`credentials.2.cardNo`) and a sentence (§7); a sentence with
 *  values carries its key and values too (contract/messages.ts), which the console says in the operator's language. */
export interface Violation {
  field: string;
  message: string;
  code?: string;
  values?: Record<string, string | number>;
}

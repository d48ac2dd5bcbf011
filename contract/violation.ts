/** What is wrong with one field of a request: its path (`credentials.2.cardNo`) and a sentence (§7). */
export interface Violation {
  field: string;
  message: string;
}

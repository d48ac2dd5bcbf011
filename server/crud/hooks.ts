// The escape hatches of a catalogue resource on the server (server/resources/<name>.ts): extra columns a
// virtual field reads, extra search, validation the declaration cannot say, values set on insert, work inside
// the transaction after an insert, work after the commit, and named actions (POST …/:id/<action>).
import type { FastifyRequest } from 'fastify';
import type { Sentence, UserFieldDef, Violation } from '../../contract';
import type { Db } from '../db/db';
import type { Scope } from './scope';

declare module 'fastify' {
  /** A value the answer carries once and nothing keeps (a new API key): merged into the create or action answer. */
  interface FastifyRequest {
    oneTime?: Record<string, unknown>;
  }
}

export interface CrudContext {
  req: FastifyRequest;
  tx: Db;
  userId: number;
  username: string;
  /** The tenant the change belongs to (the row itself for clients). */
  clientId: number | null;
}

export type Row = Record<string, unknown> & { id: number };
export type Change = { resource: string; id: number; action: string };

export interface NamedAction {
  privilege: string;
  /** Change the row (throw an HttpError to refuse); `before` is the row as loaded, locked; `input` the body the
   *  declaration's record action takes (`{ reason }`), checked, or {}. */
  run(ctx: CrudContext, before: Row, input: Record<string, unknown>): Promise<void>;
  /** What the audit row keeps (default: the whole rows). */
  audit?(before: Row, after: Row): { before: unknown; after: unknown };
  /** After the commit (e.g. drive the hardware): `who` asked for it. The answer waits for a returned promise, so
   *  what the action made (an output's event) is stored before the operator is told it is done. */
  afterCommit?(clientId: number, after: Row, who: { username: string }): void | Promise<void>;
}

export interface ResourceHooks {
  /**
   * A resource whose rows carry an account (a users row: its name, keys, sessions): the accounts a request on one
   * row would change, for the account-scope rule (server/auth/accountScope.ts). Its record routes touch 'account'.
   */
  accounts?(db: Db, req: FastifyRequest): Promise<number[]>;
  /** SQL expressions (over alias `t`) for virtual fields the server computes. */
  select?: Record<string, string>;
  /** One more OR clause of the q search, given the parameter placeholder of the `%q%` pattern. */
  search?(param: string): string;
  /** The whole q search instead of the declared fields' (e.g. one indexed expression over all of them). */
  searchAll?(param: string): string;
  /** Ids of rows the q search finds through another table (an identity by a credential's number), given the
   *  parameter placeholder of the `%q%` pattern and, when the plugin looks them up first, of the tenant's id:
   *  a SELECT of one id column. */
  searchIds?(param: string, clientParam?: string): string;
  /** How many rows the scope holds (an unsearched, unfiltered list's total) from a count kept as rows change,
   *  instead of counting them up to the cap. */
  countScope?(db: Db, scope: Scope): Promise<number>;
  validate?(ctx: CrudContext, input: Record<string, unknown>, before: Row | null): Promise<Violation[]>;
  /** Column values to write beside the input's on insert (e.g. who registered the row). */
  beforeInsert?(ctx: CrudContext, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Column values to write beside the input's on update (e.g. what the server works out from it, who changed it). */
  beforeUpdate?(ctx: CrudContext, input: Record<string, unknown>, before: Row): Promise<Record<string, unknown>>;
  /** Inside the transaction, after the row is written. */
  afterInsert?(ctx: CrudContext, row: Row): Promise<void>;
  afterCommit?(clientId: number, change: Change, after: Row | null): void;
  actions?: Record<string, NamedAction>;
  /** An `approvable` list scope (issue 50): the condition over alias `alias` that user `user` (a placeholder) decides
   *  the row (a leave approver of the person's team, and not who filed it). */
  approves?(alias: string, user: string): string;
  /** What still uses these rows outside the catalogue's references (grants in a division): a sentence, or null. */
  inUse?(tx: Db, ids: number[]): Promise<Sentence | string | null>;
  /** An `extensible` resource: the tenant's user-defined fields its `udf` values are checked against. */
  userFields?(tx: Db, clientId: number): Promise<UserFieldDef[]>;
}

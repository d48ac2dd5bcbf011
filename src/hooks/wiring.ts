// The console's wiring as the hooks room knows it (issue 28). The hooks never import src/system: the shell gives them
// the system once, before its first render (src/app/App.tsx: `wireConsole(consoleWiring)`, the one place src/app
// reaches src/system), so a view, which reaches the console only through these hooks, depends on no wiring: it asks
// for its logic by id. The wiring's types arrive the same way round: src/system/wiring.ts registers them here
// (`declare module '../hooks/wiring'`), as libraries with a `Register` interface do.
import type { AnyActorLogic, AnyActorRef } from 'xstate';

/** What src/system/wiring.ts registers: the wiring itself, the view logics by id, the resource logics, the answers. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Register {}

type Of<K extends string, Else> = Register extends Record<K, infer T> ? T : Else;
/** The functions the hooks use of the system (src/system/wiring.ts consoleWiring). */
export type ConsoleWiring = Of<
  'wiring',
  {
    getSystem(): never;
    openViewActor(label: string, input: unknown): AnyActorRef;
    closeViewActor(id: string): void;
    viewLogic(label: string): AnyActorLogic | undefined;
    viewLogicReady(label: string): Promise<void> | null;
    loadScreenLogic(): Promise<void>;
  }
>;
/** Every named logic a view may ask for, by id. */
export type ViewLogics = Of<'logics', Record<string, AnyActorLogic>>;
export type ViewLogicId = keyof ViewLogics & string;
/** The ids whose logic is of one kind (every reading, every command actor). */
export type LogicIdOf<L> = { [K in ViewLogicId]: ViewLogics[K] extends L ? K : never }[ViewLogicId];
/** A catalogue resource's list, form and list commands (`list:identities`, `form:doors`, `commands:identities`). */
export type ResourceLogics = Of<'resources', Record<'list' | 'form' | 'commands', AnyActorLogic>>;
export type ResourceView = keyof ResourceLogics;
/** The shapes of what the views' actors answer (src/hooks/answers.ts). */
export type Answers = Of<'answers', Record<string, unknown>>;

let given: ConsoleWiring | null = null;

/** The shell wires the console once, before its first render. */
export function wireConsole(wiring: ConsoleWiring): void {
  given = wiring;
}

/** The console's wiring, as the shell gave it. */
export function wiring(): ConsoleWiring {
  if (!given) throw new Error('The console is not wired yet: src/app/App.tsx gives the hooks the system (wireConsole) before the first render.');
  return given;
}

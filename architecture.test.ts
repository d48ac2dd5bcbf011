// The import rules of ARCHITECTURE.md, checked on every `npm test`: a view importing axios, a machine
// touching the DOM or the server importing the console fails here instead of in review.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}
/**
 * What a file imports: `import … from`, `export … from`, a bare `import 'x'`, dynamic `import('x')` (a lazy import is
 * still a dependency: the rules below would not see a view that loads src/api lazily otherwise) and `require('x')`.
 */
const importsOf = (file: string) => {
  const text = readFileSync(file, 'utf8');
  return [
    ...[...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\bimport\(\s*['"`]([^'"`]+)['"`]\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/\brequire\(\s*['"`]([^'"`]+)['"`]\s*\)/g)].map((m) => m[1]),
  ];
};

const rules: { folder: string; forbidden: RegExp; why: string }[] = [
  { folder: 'contract', forbidden: /^\.\.\/(machines|src|server)|^(react|axios|fastify|xstate)/, why: 'contract/ imports nothing of ours' },
  { folder: 'machines', forbidden: /^\.\.\/(src|server)\/|^(react|react-dom|axios|@blueprintjs)/, why: 'machines/ may import contract/ only' },
  { folder: 'server', forbidden: /^\.\.\/(\.\.\/)*(src|machines)\/|^(react|@blueprintjs)/, why: 'server/ may import contract/ only' },
  // issue 47: one access engine run by the server and the edge; it imports the contract only
  {
    folder: 'access',
    forbidden: /^\.\.\/(\.\.\/)*(src|machines|server|edge)\/|^(react|@blueprintjs|axios|fastify|xstate|ws|pg|@electric-sql)/,
    why: 'access/ (the shared engine) imports contract/ only',
  },
  // issue 47: the edge talks to the server over the network only, and the server knows no edge
  {
    folder: 'edge',
    forbidden: /^\.\.\/(\.\.\/)*(src|machines|server)\/|^(react|@blueprintjs|fastify)/,
    why: 'edge/ imports contract/ and the engine, never server/',
  },
  // (server/edge/ is the server's side of the edge's connection; the edge itself is the top-level edge/)
  { folder: 'server', forbidden: /^(\.\.\/){2,}edge\//, why: 'the server never imports the edge (it talks to it over its connection)' },
  // Issue 28: views import contract/, machines/ (selectors, types), src/ui, src/i18n and the hooks room (src/hooks),
  // never the wiring (src/system), the raw calls (src/api) or the transports: they ask for their actors by id
  ...['src/screens', 'src/resources', 'src/ui'].map((folder) => ({
    folder,
    forbidden: /^axios$|(^|\/)(api|system|transport)\//,
    why: 'views ask the hooks room for their actors, never src/system, src/api or src/transport',
  })),
  // the shell gives the hooks room the console's wiring (src/app/App.tsx: wireConsole(consoleWiring)): src/system/wiring
  // is the one file of the system it names
  {
    folder: 'src/app',
    forbidden: /^axios$|(^|\/)(api|transport)\/|(^|\/)system\/(?!wiring$)/,
    why: 'the shell reaches the system only to give the hooks its wiring (src/system/wiring.ts)',
  },
  // …and the hooks room, which every view goes through, imports no src/system at all: it uses the wiring it was given
  // (src/hooks/wiring.ts), so no view depends on the wiring, even through its hooks (../shared/whiteboard.json: never Screens -> Wiring)
  {
    folder: 'src/hooks',
    forbidden: /^axios$|(^|\/)(api|transport|system)\//,
    why: 'the hooks room uses the wiring the shell gave it, never src/system, src/api or the network',
  },
  // Issue 28: src/api is the transport (the client, the raw REST and stream calls, their errors): the actors and machine
  // logic that use those calls are the system's (src/system: readActors, resourceActors, passwordActors, printBadge)
  {
    folder: 'src/api',
    forbidden: /^xstate$|^@xstate\/|^\.\.\/(system|hooks|screens|resources|ui|app)\/|^\.\.\/\.\.\/machines\//,
    why: 'src/api holds no machine logic, actor or view: transport only',
  },
  // Issue 28: the doors room (the hardware port, the doors' live state, presence) is below whatever drives or serves
  // the doors, and the rooms that command doors know the hardware only as that port (the simulator implements it)
  { folder: 'server/doors', forbidden: /^\.\.\/(simulator|http|crud|resources|batch)\//, why: 'the doors room knows no simulator, route or catalogue' },
  // the ingest pipeline, the events and the alarms are below the routes that serve them: they format their rows with the
  // database's own helpers (server/db/values.ts), never the HTTP kit
  { folder: 'server/monitor', forbidden: /^\.\.\/(http|crud|resources|batch|simulator)\//, why: 'the monitor room knows no route, catalogue or simulator' },
  // issue 48: the shift handover's shifts and digest are a room of their own below its routes and the report jobs
  { folder: 'server/handover', forbidden: /^\.\.\/(http|crud|resources|batch|simulator)\//, why: 'the handover room knows no route, catalogue or report job' },
  ...['server/access', 'server/logic'].map((folder) => ({
    folder,
    forbidden: /^\.\.\/simulator\//,
    why: 'access rules and logic command doors through the hardware port (server/doors/port.ts), never the simulator',
  })),
];

// Issue 11: views read actors and send them events. No view may call `useTask` (a promise run by the view; the hook is
// gone) nor src/api/endpoints (a request of the view's own): the requests are provided to the views' actors by the
// system (src/system/logic.ts). Whole folders, no exceptions.
const actorViews: { path: string; why: string }[] = [
  { path: 'src/screens', why: 'the screens read reading, command, form and screen actors' },
  { path: 'src/resources', why: 'the generic lists, forms and pickers read their actors' },
  { path: 'src/app', why: "the shell reads the system's actors and its own reading actors" },
  { path: 'src/ui', why: 'shared components only show what they are given' },
];
const viewTasks = /(^|\/)ui\/useTask$|(^|\/)api\/endpoints$/;

// Issue 11: a view's own actor is a child of the console's actor system (src/hooks/useViewActor.ts), so its events are in
// the journal, session replay and the inspector. A view may not start one of its own with useActorRef / useActor /
// useMachine, except where recording its events would put what the journal must not hold into it:
// (the batch upload's actor, which takes the spreadsheet itself as an event, is opened outside the system by the hooks
// room's usePrivateActor, by id like any other)
const ownActorExceptions: Record<string, string> = {
  'src/screens/audit/ReplayScreen.tsx': 'the replay viewer takes a whole journal as an event: a journal inside the journal',
};

// …nor run a promise or callback of its own (a request, a stream): those are actor logic registered in src/system/logic.ts.
const ownJobExceptions: Record<string, string> = {};

/** The source files of folders a rule is about; a folder gone, renamed or without source fails (a rule over nothing passes). */
function sourcesOf(folders: string[]): string[] {
  for (const folder of folders)
    expect(existsSync(folder) ? files(folder).length : 0, `${folder}/ holds no source file: renamed or gone? Move the rule with the folder`).toBeGreaterThan(0);
  return folders.flatMap(files);
}

describe('import boundaries of ARCHITECTURE.md', () => {
  it('views start no actor, promise or callback of their own (the REST and stream calls run in actors)', () => {
    const bad = sourcesOf(['src/screens', 'src/resources', 'src/ui', 'src/app'])
      .filter((f) => !(f in ownJobExceptions))
      .filter((f) => /\b(createActor|fromPromise|fromCallback)\(/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
  it("views follow real-time notices through useChangeNotices (or useReading's notices), never a socket's messages by hand", () => {
    // a hand-made subscription hears a notice but not a reconnect: a change sent while the live connection was down is
    // never read (the doors screen kept a threat level's doors unmarked after a reconnect, CI of 2026-12-05); the one
    // place that hears socket messages for views is src/hooks/changeNotices.ts, with the resync
    const bad = sourcesOf(['src/screens', 'src/resources', 'src/ui', 'src/app', 'src/hooks'])
      .filter((f) => f !== 'src/hooks/changeNotices.ts')
      .filter((f) => /['"]socket\.message['"]/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
  it('views open their own actors through useViewActor (children of the actor system), not useActorRef', () => {
    // an exception for a file that is gone would excuse whatever takes its name next
    expect(Object.keys(ownActorExceptions).filter((f) => !existsSync(f))).toEqual([]);
    const bad = sourcesOf(['src/screens', 'src/resources', 'src/ui', 'src/app'])
      .filter((f) => !(f in ownActorExceptions))
      .filter((f) => /\b(useActorRef|useActor|useMachine)\b/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });

  for (const view of actorViews) {
    it(`${view.path}: no useTask and no src/api/endpoints (${view.why})`, () => {
      const list = existsSync(view.path) && !statSync(view.path).isDirectory() ? [view.path] : sourcesOf([view.path]);
      const bad = list.flatMap((f) =>
        importsOf(f)
          .filter((i) => viewTasks.test(i))
          .map((i) => `${f} imports ${i}`),
      );
      expect(bad).toEqual([]);
    });
  }
  for (const rule of rules) {
    it(`${rule.folder}: ${rule.why}`, () => {
      // a rule over a folder that is gone or renamed (or holds no source) checks nothing: that fails, it does not pass
      const list = sourcesOf([rule.folder]);
      const bad = list.flatMap((f) =>
        importsOf(f)
          .filter((i) => rule.forbidden.test(i))
          .map((i) => `${f} imports ${i}`),
      );
      expect(bad).toEqual([]);
    });
  }
  it('machines use no timers, storage, network or wall clock directly (they are injected)', () => {
    const bad = sourcesOf(['machines']).filter((f) =>
      /\b(setTimeout|setInterval|localStorage|sessionStorage|fetch\(|new WebSocket|Date\.now\(\)|Math\.random\(\))/.test(readFileSync(f, 'utf8')),
    );
    expect(bad).toEqual([]);
  });
});

// Issue 28: a file says one thing: no product file of contract/, machines/, src/ or server/ is over 500 lines (the crud
// plugin is a file per operation, the route table a file per sidebar section, the generic form its inputs, record and
// layout, a machine's helpers, types and selectors files of their own). Not product: tests (*.test.ts(x), which
// files() leaves out; model-tests/, e2e/ and bench/ are outside these roots) and the server's SQL migrations. The
// dictionaries (src/i18n/: the console's words in each language) are one table each and may be long.
const MAX_LINES = 500;
const notProduct = /(^|\/)(model-tests|e2e|bench|migrations)\//;
const dictionaries = /^src\/i18n\//;
// Issue 48: views read actors and send them events; what a view may keep itself is what is on screen only: which
// dialog, drawer or fold is open, what is measured (a size, a scroll, a clock for "3 s ago"), an element, and what is
// typed or chosen (a reading's query fields included: the actor that reads gets them as its input). Each piece of React
// state or ref in a view says which with a `// visual:` comment on its line or above its group of declarations; a ref
// that only mirrors the latest value for a handler made once says `// latest:`, and a ref to an element,
// `useRef<HTMLElement…>(null)`, says it by its type. What the server
// said, a command's progress or answer, a list, an applied filter or a query, anything to send again, lives in an
// actor (docs/ARCHITECTURE.md, "What a view may keep").
const VIEW_STATE = /\b(useState|useReducer|useRef)\b\s*(<[^>]*(>[^>]*)?>)?\s*\(/;
const MARKED = /\/\/\s*(visual|latest):/;
const ELEMENT_REF = /\buseRef<\s*(HTML\w*Element|SVG\w*Element)(\s*\|\s*null)?\s*>\s*\(null\)/;
/** Views that still keep state an actor should hold, each with what it keeps: the list may only shrink. */
// (empty since the re-read counters, the card read's filled fields and the operator settings' sent values moved to
// their actors: list.refresh, read.reload, cardConnector.filled, the form's `sent`)
const viewStateExceptions: Record<string, string> = {};

describe('what a view may keep', () => {
  it('every useState, useReducer and useRef of a view is on-screen state, said with a visual: comment', () => {
    expect(Object.keys(viewStateExceptions).filter((f) => !existsSync(f))).toEqual([]);
    const bad: string[] = [];
    let seen = 0;
    for (const f of sourcesOf(['src/screens', 'src/resources', 'src/ui', 'src/app'])) {
      if (f in viewStateExceptions) continue;
      const lines = readFileSync(f, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*import\b/.test(line) || !VIEW_STATE.test(line)) return;
        seen++;
        if (ELEMENT_REF.test(line) || MARKED.test(line)) return;
        // a comment above a group of such declarations says it for the group
        let above = i - 1;
        while (above >= 0 && VIEW_STATE.test(lines[above]) && !/^\s*\/\//.test(lines[above])) above--;
        // (the comment may run over several lines: its first says it)
        while (above > 0 && /^\s*\/\//.test(lines[above - 1]) && !/^\s*\/\/\s*(visual|latest):/.test(lines[above])) above--;
        if (/^\s*\/\/\s*(visual|latest):/.test(lines[above] ?? '')) return;
        bad.push(`${f}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(seen, 'no view state found at all: the check reads nothing').toBeGreaterThan(50);
    expect(bad).toEqual([]);
  });
  it('an exception is for a view that still keeps such state', () => {
    const stale = Object.keys(viewStateExceptions).filter((f) => !VIEW_STATE.test(readFileSync(f, 'utf8')));
    expect(stale).toEqual([]);
  });
});

// Issue 48: SQL lives in the rooms' query modules (server/db/queries/<room>.ts), as the style says. A call of
// `.query(` or `.exec('…')` anywhere else in server/ product code fails, but for the files listed here with the most
// calls each may still make: a count may only go down (moving a room's SQL lowers it; a file at 0 leaves the list).
const SQL_CALL = /\.query\s*(<[^()]*>)?\s*\(|\.exec\(\s*[`'"]/g;
const sqlOutsideQueries: Record<string, number> = {
  // the database layer itself: the connection, migrations, maintenance, backup's dump, the test kit's database
  'server/backup/postgres.ts': 2,
  'server/db/db.ts': 10,
  'server/db/maintenance.ts': 2,
  'server/db/migrate.ts': 3,
  'server/testkit.ts': 5,
  // the demo and test seed: rows written as such, once, not a room's queries
  'server/access/seed.ts': 13,
  'server/db/seed.ts': 34,
  // the catalogue's CRUD plugin: SQL built from a resource declaration (its table, columns, joins), no fixed query to move
  'server/crud/checks.ts': 4,
  'server/crud/context.ts': 3,
  'server/crud/delete.ts': 6,
  'server/crud/drift.ts': 4,
  'server/crud/export.ts': 1,
  'server/crud/list.ts': 6,
  'server/crud/rows.ts': 2,
  'server/crud/scopes.ts': 1,
  'server/crud/where.ts': 1,
  'server/crud/write.ts': 11,
  // (every room's fixed queries are in server/db/queries/<room>.ts since 2026-12-04: a new one outside fails here)
};

describe('SQL in the query modules', () => {
  const counts = () =>
    Object.fromEntries(
      files('server')
        .filter((f) => !/\.test\.ts$/.test(f) && !/^server\/db\/(queries|migrations)\//.test(f) && /\.ts$/.test(f))
        .map((f) => [f, (readFileSync(f, 'utf8').match(SQL_CALL) ?? []).length] as const)
        .filter(([, n]) => n > 0),
    );
  it('no server product file outside server/db/queries runs SQL, but the listed ones, each at most as often as listed', () => {
    const now = counts();
    expect(Object.keys(now).length, 'the check finds no SQL at all: it reads nothing').toBeGreaterThan(0);
    const over = Object.entries(now)
      .filter(([f, n]) => n > (sqlOutsideQueries[f] ?? 0))
      .map(([f, n]) => `${f}: ${n} SQL calls (${sqlOutsideQueries[f] ?? 0} allowed): move them to server/db/queries/<room>.ts`);
    expect(over).toEqual([]);
  });
  it('the list names no file that no longer runs SQL', () => {
    const now = counts();
    // (a file not there is another engineer's, not committed yet when it was listed: server/auth/mfa/passwordless.ts)
    expect(Object.keys(sqlOutsideQueries).filter((f) => existsSync(f) && !now[f])).toEqual([]);
  });
});

describe('room sizes', () => {
  for (const root of ['contract', 'access', 'machines', 'src', 'server']) {
    it(`no product file of ${root}/ is over ${MAX_LINES} lines${root === 'src' ? ' (the dictionaries of src/i18n/ excepted)' : ''}`, () => {
      const big = files(root)
        .filter((f) => !notProduct.test(f) && !dictionaries.test(f))
        .map((f) => ({ f, n: readFileSync(f, 'utf8').split('\n').length - 1 }))
        .filter((x) => x.n > MAX_LINES)
        .map((x) => `${x.f}: ${x.n} lines`);
      expect(big).toEqual([]);
    });
  }
});

// Issue 28: no import circles in the product (a circle is two rooms that cannot be understood, moved or tested apart).
describe('import circles', () => {
  it('no product file of contract/, machines/, src/ or server/ imports itself through others', () => {
    const all = ['contract', 'machines', 'src', 'server'].flatMap(files);
    const known = new Set(all);
    const resolve = (from: string, spec: string): string | null => {
      if (!spec.startsWith('.')) return null;
      const base = join(from, '..', spec);
      for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (known.has(c)) return c;
      return null;
    };
    const edges = new Map(
      all.map((f) => [
        f,
        importsOf(f)
          .map((s) => resolve(f, s))
          .filter((x): x is string => x !== null),
      ]),
    );
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const g of edges.get(f) ?? []) {
        if (state.get(g) === 'open') circles.push([...path.slice(path.indexOf(g)), g].join(' -> '));
        else if (!state.has(g)) visit(g, [...path, g]);
      }
      state.set(f, 'done');
    };
    for (const f of all) if (!state.has(f)) visit(f, [f]);
    expect(circles).toEqual([]);
  });
});

// Issue 48: styles beside the parts they style. A block of the shared stylesheet (`.gh-block`, `.gh-block__part`) that
// only one screen's file names belongs in a `.css` file beside that screen, loaded with its chunk; the shared sheets
// keep what the shell, the generic parts or several screens use. The dashboard's and the live events table's stay by reason (ARCHITECTURE.md).
describe('styles beside the parts they style', () => {
  const SHARED_SHEETS = ['src/styles/app.css', 'src/styles/shift.css'];
  const STAYS: Record<string, string> = {
    'gh-dash': 'the dashboard is the opening screen: its rules are in the start stylesheet either way',
    'gh-stat': "the dashboard's figures, the same",
    'gh-events-table': "the live events table's wide-screen grid and shift.css's phone cards are one cascade",
    'gh-events-scroll': "the live events table's scrolling box, part of the same cascade",
  };
  const sources = files('src').map((f) => ({ f, text: readFileSync(f, 'utf8') }));
  it("no block of the shared stylesheets is named by one screen's file alone", () => {
    const blocks = new Set(SHARED_SHEETS.flatMap((s) => [...readFileSync(s, 'utf8').matchAll(/\.(gh-[a-z0-9-]+?)(?:__|--|[^a-z0-9_-])/g)].map((m) => m[1])));
    expect(blocks.size).toBeGreaterThan(40); // the scan read the sheets
    const alone = [...blocks]
      .filter((b) => !(b in STAYS))
      .map((b) => ({ b, users: sources.filter((s) => new RegExp(`\\b${b}(?![a-z0-9-])`).test(s.text)).map((s) => s.f) }))
      .filter((x) => x.users.length === 1 && x.users[0].startsWith('src/screens/'))
      .map((x) => `${x.b}: only ${x.users[0]}`);
    expect(alone).toEqual([]);
  });
});

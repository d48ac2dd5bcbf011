// The import rules of ARCHITECTURE.md, checked on every `npm test`: a view importing axios, a machine
// touching the DOM or the server importing the console fails here instead of in review.
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);

const rules: { folder: string; forbidden: RegExp; why: string }[] = [
  { folder: 'contract', forbidden: /^\.\.\/(machines|src|server)|^(react|axios|fastify|xstate)/, why: 'contract/ imports nothing of ours' },
  { folder: 'machines', forbidden: /^\.\.\/(src|server)\/|^(react|react-dom|axios|@blueprintjs)/, why: 'machines/ may import contract/ only' },
  { folder: 'server', forbidden: /^\.\.\/(\.\.\/)*(src|machines)\/|^(react|@blueprintjs)/, why: 'server/ may import contract/ only' },
  { folder: 'src/screens', forbidden: /^axios$|\/api\/client/, why: 'views never call the network themselves' },
  { folder: 'src/app', forbidden: /^axios$|\/api\/client/, why: 'views never call the network themselves' },
  { folder: 'src/ui', forbidden: /^axios$|\/api\/client/, why: 'views never call the network themselves' },
];

// Issue 11: views read actors and send them events. The views moved onto actors so far may call neither `useTask` (a
// promise run by the view) nor src/api/endpoints (a request of the view's own); a folder joins once all of it is moved.
const actorViews: { path: string; why: string }[] = [
  { path: 'src/app/Header.tsx', why: 'the client menu is read through a reading actor' },
  { path: 'src/resources/RefPicker.tsx', why: 'the reference pickers read the options actor' },
  { path: 'src/resources/ResourceForm.tsx', why: 'the generic form reads its form and choice actors' },
  { path: 'src/resources/userFieldDefs.ts', why: 'the user-defined fields are read through a reading actor' },
  { path: 'src/screens/configure', why: 'the configure screens read reading, command and screen actors' },
];
const viewTasks = /(^|\/)ui\/useTask$|(^|\/)api\/endpoints$/;

describe('import boundaries of ARCHITECTURE.md', () => {
  for (const view of actorViews) {
    it(`${view.path}: no useTask and no src/api/endpoints (${view.why})`, () => {
      const list = statSync(view.path).isDirectory() ? files(view.path) : [view.path];
      const bad = list.flatMap((f) => importsOf(f).filter((i) => viewTasks.test(i)).map((i) => `${f} imports ${i}`));
      expect(bad).toEqual([]);
    });
  }
  for (const rule of rules) {
    it(`${rule.folder}: ${rule.why}`, () => {
      let list: string[] = [];
      try { list = files(rule.folder); } catch { /* folder not there yet */ }
      const bad = list.flatMap((f) => importsOf(f).filter((i) => rule.forbidden.test(i)).map((i) => `${f} imports ${i}`));
      expect(bad).toEqual([]);
    });
  }
  it('machines use no timers, storage, network or wall clock directly (they are injected)', () => {
    const bad = files('machines').filter((f) => /\b(setTimeout|setInterval|localStorage|sessionStorage|fetch\(|new WebSocket|Date\.now\(\)|Math\.random\(\))/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
});

// A helper script of `npm test` (scripts/test.mjs) run beside other steps: its result is the last line it writes to its
// standard output (warnings go to its standard error). The server tests' seeded image and the end-to-end template are
// made this way.
import { spawn } from 'node:child_process';

/**
 * Runs `script` (TypeScript through tsx) and resolves to the last line of its standard output, or to null when it failed:
 * then `failed(code)` and everything it wrote are printed (the step that needs it makes its own, and says why).
 */
export function lastLineOf(script, failed) {
  return new Promise((resolve) => {
    const out = [];
    const said = []; // its standard output alone
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out.push(d), said.push(d)));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      if (code === 0) return resolve(Buffer.concat(said).toString().trim().split('\n').at(-1));
      console.log(`\n${failed(code)}\n${Buffer.concat(out).toString().trim()}`);
      resolve(null);
    });
  });
}

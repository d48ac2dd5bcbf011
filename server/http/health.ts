// §health: 200 only while the database takes writes (and its directory has room); 503 says what is wrong. It never
// waits longer than timeoutMs on a write that does not come back, and logs a problem when it changes, not per call.
import type { FastifyInstance } from 'fastify';
import { API } from '../../contract';
import { checkDataDir, probeWrite, refusedWrites, type Db } from '../db/db';

export function healthRoutes(app: FastifyInstance, { db, dataDir, timeoutMs }: { db: Db; dataDir?: string | null; timeoutMs: number }) {
  let lastProblem: string | undefined;
  app.get(API.health, async (req, reply) => {
    const storage = db.storage?.state();
    const dir = dataDir && db.kind === 'pglite' ? checkDataDir(dataDir) : null;
    let problem: string | undefined;
    if (storage?.full) problem = `${refusedWrites(storage)}: ${storage.problem}`;
    else {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<{ writable: false; problem: string }>((resolve) => {
        timer = setTimeout(() => resolve({ writable: false, problem: `it did not answer a write within ${timeoutMs / 1000} s` }), timeoutMs);
      });
      const write = await Promise.race([probeWrite(db), late]).finally(() => clearTimeout(timer));
      const now = db.storage?.state(); // the write may have found the disk full
      problem = now?.full
        ? `${refusedWrites(now)}: ${now.problem}`
        : !write.writable
          ? `The database refuses writes: ${write.problem}`
          : dir && !dir.writable
            ? `${refusedWrites(dir)}: ${dir.problem}`
            : undefined;
    }
    const body = {
      status: problem ? 'unavailable' : 'ok',
      database: db.kind,
      writable: !problem,
      ...(dir ? { freeBytes: dir.freeBytes } : {}),
      ...(problem ? { problem } : {}),
    };
    // a full disk is logged by the server's watch of its storage (server/app.ts); anything else once each time it changes
    if (problem !== lastProblem && problem && !db.storage?.state().full) req.log.error({ health: body }, 'health check failed');
    lastProblem = problem;
    return reply.code(problem ? 503 : 200).send(body);
  });
}

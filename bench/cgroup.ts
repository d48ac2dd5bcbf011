// A CPU quota of its own for a process (issue 30: judge scale-out and the broker's ceiling with the cores shared
// fairly, not by whoever wins the 2 cores). cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`, as on this machine);
// the bench runs as root here and in CI. Where no cgroup can be made or written, `cpuCap` answers why, and the bench
// that needed it judges nothing.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const V2 = '/sys/fs/cgroup';
const V1 = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;
/**
 * The group's weight against everything else on the machine. A quota caps a group, it does not give it its share: with
 * the default weight (v1 cpu.shares 1024, v2 cpu.weight 100) the whole group weighs as much as ONE busy process of the
 * root group, so on a shared machine at load 16 a server capped at 1 core got about 1/8 of one (issue 30: PostgreSQL's
 * pipelineToRaw read 0.12). The highest weight lets the group have its quota whatever else runs; the quota still caps it.
 */
const V1_SHARES = 262_144;
const V2_WEIGHT = 10_000;

export interface CpuCap {
  /** how the quota is set, e.g. "cgroup v1 cpu.cfs_quota_us 40000/100000" */
  how: string;
  cores: number;
  /** put a process (all its threads) under the quota */
  add(pid: number): void;
  /** take every process out again (to the root group) and remove the group */
  close(): void;
}

/**
 * A cgroup limited to `cores` of CPU (Infinity: no limit, only the high weight, e.g. for the bench's own generator),
 * or the reason there is none.
 */
export function cpuCap(name: string, cores: number): CpuCap | { notAvailable: string } {
  const limited = Number.isFinite(cores);
  const quota = limited ? Math.max(1000, Math.round(cores * PERIOD_US)) : -1;
  const tag = `gatehouse-bench-${process.pid}-${name}`;
  try {
    if (existsSync(join(V2, 'cgroup.controllers'))) {
      // the cpu controller must be on for the root's children
      const sub = readFileSync(join(V2, 'cgroup.subtree_control'), 'utf8');
      if (!sub.split(/\s+/).includes('cpu')) writeFileSync(join(V2, 'cgroup.subtree_control'), '+cpu');
      const dir = join(V2, tag);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.max'), `${limited ? quota : 'max'} ${PERIOD_US}`);
      writeFileSync(join(dir, 'cpu.weight'), String(V2_WEIGHT));
      return group(dir, V2, `cgroup v2 cpu.max ${limited ? quota : 'max'} ${PERIOD_US}, cpu.weight ${V2_WEIGHT}`, cores);
    }
    if (existsSync(join(V1, 'cpu.cfs_quota_us'))) {
      const dir = join(V1, tag);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
      writeFileSync(join(dir, 'cpu.shares'), String(V1_SHARES));
      return group(dir, V1, `cgroup v1 cpu.cfs_quota_us ${quota}/${PERIOD_US}, cpu.shares ${V1_SHARES}`, cores);
    }
    return { notAvailable: 'no cgroup cpu controller (neither /sys/fs/cgroup/cgroup.controllers nor /sys/fs/cgroup/cpu)' };
  } catch (e) {
    return { notAvailable: `cgroups cannot be written here (${(e as Error).message.split('\n')[0]}): run as root on a host whose /sys/fs/cgroup is writable` };
  }
}

function group(dir: string, root: string, how: string, cores: number): CpuCap {
  return {
    how,
    cores,
    add(pid) {
      writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    },
    close() {
      try {
        for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
          try {
            writeFileSync(join(root, 'cgroup.procs'), pid);
          } catch {
            /* gone meanwhile */
          }
        }
        rmdirSync(dir);
      } catch {
        /* already removed */
      }
    },
  };
}

export const isCap = (c: CpuCap | { notAvailable: string }): c is CpuCap => 'add' in c;

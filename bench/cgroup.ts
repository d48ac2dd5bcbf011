// A CPU quota of its own for a process (issue 30: judge scale-out and the broker's ceiling with the cores shared
// fairly, not by whoever wins the 2 cores). cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`, as on this machine);
// the bench runs as root here and in CI. Where no cgroup can be made or written, `cpuCap` answers why, and the bench
// that needed it judges nothing.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const V2 = '/sys/fs/cgroup';
const V1 = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;

export interface CpuCap {
  /** how the quota is set, e.g. "cgroup v1 cpu.cfs_quota_us 40000/100000" */
  how: string;
  cores: number;
  /** put a process (all its threads) under the quota */
  add(pid: number): void;
  /** take every process out again (to the root group) and remove the group */
  close(): void;
}

/** A cgroup limited to `cores` of CPU, or the reason there is none. */
export function cpuCap(name: string, cores: number): CpuCap | { notAvailable: string } {
  const quota = Math.max(1000, Math.round(cores * PERIOD_US));
  const tag = `gatehouse-bench-${process.pid}-${name}`;
  try {
    if (existsSync(join(V2, 'cgroup.controllers'))) {
      // the cpu controller must be on for the root's children
      const sub = readFileSync(join(V2, 'cgroup.subtree_control'), 'utf8');
      if (!sub.split(/\s+/).includes('cpu')) writeFileSync(join(V2, 'cgroup.subtree_control'), '+cpu');
      const dir = join(V2, tag);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
      return group(dir, V2, `cgroup v2 cpu.max ${quota} ${PERIOD_US}`, cores);
    }
    if (existsSync(join(V1, 'cpu.cfs_quota_us'))) {
      const dir = join(V1, tag);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
      return group(dir, V1, `cgroup v1 cpu.cfs_quota_us ${quota}/${PERIOD_US}`, cores);
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

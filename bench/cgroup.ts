// A CPU quota of its own for a process (issue 30: judge scale-out and the broker's ceiling with the cores shared
// fairly, not by whoever wins the 2 cores). cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`, as on this machine);
// the bench runs as root here and in CI. Where no cgroup can be made or written, `cpuCap` answers why, and the bench
// that needed it judges nothing.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const V2 = '/sys/fs/cgroup';
const V1 = '/sys/fs/cgroup/cpu';
/**
 * The CFS period (BENCH_CFS_PERIOD_US, 1,000-1,000,000; the kernel's 100 ms by default). A burst over the quota is
 * stalled until the period ends, so a shorter period was suspected of the fan-out ceiling's p99 (issue 30). Measured
 * (load 7-10, 0.5 core, 20 events/s): at 1, 10 and 100 subscribers the server was throttled in 0 of 40 periods of
 * 100 ms (p99 19-24 ms), and at 1,000 a 10 ms period made p99 worse (319 ms, throttled in 294 of 381 periods) than
 * 100 ms (174 ms, 16 of 41): the period was not the cause, so the default stays. `throttled()` reports the stalls.
 */
const PERIOD_US = Math.min(1_000_000, Math.max(1000, Number(process.env.BENCH_CFS_PERIOD_US) || 100_000));
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
  /** how often and how long (ms) the group was throttled since it was made (cpu.stat), or null where not told */
  throttled(): { periods: number; throttledPeriods: number; throttledMs: number } | null;
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
    throttled() {
      try {
        const stat = Object.fromEntries(
          readFileSync(join(dir, 'cpu.stat'), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => l.split(' ') as [string, string]),
        );
        // v1: throttled_time in ns; v2: throttled_usec
        const throttledMs = stat.throttled_time !== undefined ? Number(stat.throttled_time) / 1e6 : Number(stat.throttled_usec) / 1e3;
        return { periods: Number(stat.nr_periods), throttledPeriods: Number(stat.nr_throttled), throttledMs: Math.round(throttledMs) };
      } catch {
        return null;
      }
    },
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

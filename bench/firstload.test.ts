// The firstload bench reads the page's own tasks out of chromium's trace of the whole browser (bench/firstload.ts).
import { describe, expect, it } from 'vitest';
import { tracedTasks } from './firstload';

const thread = (pid: number, name: string) => ({ ph: 'M', name: 'thread_name', pid, tid: pid, args: { name } });
const task = (pid: number, dur: number, tdur: number) => ({ ph: 'X', name: 'ThreadControllerImpl::RunTask', pid, tid: pid, ts: 0, dur, tdur });
const PAGE = 10;
const WEBUI = 11; // chromium's omnibox popup, started with each new context
const events = [
  thread(PAGE, 'CrRendererMain'),
  thread(WEBUI, 'CrRendererMain'),
  task(PAGE, 80_000, 30_000),
  task(PAGE, 40_000, 35_000),
  task(WEBUI, 300_000, 150_000),
  { ph: 'I', name: 'gatehouse-firstload', pid: PAGE, tid: PAGE, ts: 0, cat: 'blink.user_timing' },
];

describe("the firstload bench's traced tasks", () => {
  it("counts the page's renderer only, named by its user-timing mark (not chromium's own WebUI renderer)", () => {
    expect(tracedTasks(JSON.stringify({ traceEvents: events }))).toEqual({ longestMs: 80, longestCpuMs: 30, mostCpuMs: 35 });
  });
  it('counts every renderer when the trace has no mark', () => {
    expect(tracedTasks(JSON.stringify(events.slice(0, -1)))).toEqual({ longestMs: 300, longestCpuMs: 150, mostCpuMs: 150 });
  });
});

// A small seeded random source for tests and benchmarks (mulberry32): the same seed gives the same series, so a
// failing test's series or a bench's requests and pauses can be run again. One copy, shared by server tests and
// bench/ (bench/restOperators.ts runs its operators at the top level of a worker, so it cannot be imported for it).

/** mulberry32: numbers in [0, 1), the same series for the same `seed`. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The scheduler React renders a transition with (react-dom's own copy: one in the bundle). It ships no types; this is
// the one call the console makes of it (./mountConsole.tsx).
declare module 'scheduler' {
  /** How long a slice of a transition's render runs before it yields to the browser: 1000 / fps ms; 0 restores 5 ms. */
  export function unstable_forceFrameRate(fps: number): void;
}

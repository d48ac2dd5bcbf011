// The mutation run without Stryker's TypeScript checker (`npm run mutation -- stryker.quick.config.mjs --mutate X`):
// on the shared 2-core machine the checker type-checks the project per mutant and about doubled a mutant's cost. A
// mutant that would not compile is then run, and counted killed if a test fails on it (docs/TESTING.md).
import base from './stryker.config.mjs';

export default { ...base, checkers: [] };

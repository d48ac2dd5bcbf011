// `node --import tsx server/writeTestImage.ts`: writes the server tests' migrated, seeded PGlite image
// (server/testkit.ts `writeSeededPgliteImage`) and prints its file as its last line. `npm test` runs it beside the
// source checks and hands the file to the PGlite step in GATEHOUSE_TEST_PGLITE_IMAGE, where the global setup takes it
// as it is instead of making it while every fork waits; scripts/test.mjs removes it at the end.
import { writeSeededPgliteImage } from './testkit';

console.log((await writeSeededPgliteImage()).file);
process.exit(0);

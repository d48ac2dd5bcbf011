// `node --import tsx e2e/seedTemplate.ts`: seeds the end-to-end run's template database (e2e/globalSetup.ts) ahead of
// Playwright and prints its data directory as its last line. scripts/test.mjs runs it beside the server suite's
// PostgreSQL step and hands the directory to Playwright in E2E_SEEDED_TEMPLATE.
import { seedTemplate } from './globalSetup';

console.log(await seedTemplate());

// The scheduled report jobs are a room of their own (server/reports/): server/app.ts still takes their routes and runner
// from here until its import names ../reports (then this file goes).
export { reportJobRoutes, startReportJobs } from '../reports';

// Privilege families (scheduled report jobs): a row is viewed and changed with its own family's codes, in one rule
// (mayOnRow) the server's record sub-routes and the console's record page, form and list share.
import { describe, expect, it } from 'vitest';
import { PRIV } from '../privileges';
import { familyOf, mayOnRow } from './derive';
import { reportJobsResource } from './reportJobs';
import { firmwareResource } from './firmware';

describe('mayOnRow', () => {
  const security = { report: 'events' };
  const attendance = { report: 'daily-attendance' };
  it('asks a family resource for the code of the row\u2019s own family', () => {
    expect(familyOf(reportJobsResource, 'events')?.view).toBe(PRIV.reportJobs.view);
    expect(familyOf(reportJobsResource, 'attendance-summary')?.edit).toBe(PRIV.attendanceReportJobs.edit);
    expect(familyOf(reportJobsResource, 'nonsense')).toBeNull();
    const hr = [PRIV.attendanceReportJobs.view, PRIV.attendanceReportJobs.edit];
    expect(mayOnRow(reportJobsResource, 'edit', hr, attendance)).toBe(true);
    expect(mayOnRow(reportJobsResource, 'edit', hr, security)).toBe(false);
    expect(mayOnRow(reportJobsResource, 'view', [PRIV.reportJobs.view], security)).toBe(true);
    expect(mayOnRow(reportJobsResource, 'edit', [PRIV.reportJobs.view], security)).toBe(false);
    expect(mayOnRow(reportJobsResource, 'view', hr, null)).toBe(false);
  });
  it('asks any other resource for its declared code', () => {
    expect(mayOnRow(firmwareResource, 'edit', [PRIV.firmware], null)).toBe(true);
    expect(mayOnRow(firmwareResource, 'edit', [PRIV.reportJobs.edit], { version: 'x' })).toBe(false);
  });
});

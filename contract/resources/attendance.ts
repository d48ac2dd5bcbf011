// Time and attendance set-up (§2 Attendance): work schedules [3.1.x] (the hours a member of staff is expected, per
// weekday), teams [3.0.x] (staff sharing a work schedule) and leave categories [3.7.x] (kinds of leave and their
// yearly allowance). The spec names no fields; these are what a timesheet needs. No delete code exists for any of
// them: one no longer used is switched off.
import { PRIV } from '../privileges';
import { WEEKDAYS, timeOfDay } from './schedules';
import { after, children, choice, date, datetime, defineResource, notBefore, number, ref, refs, switchField, text, timestamp } from './define';
import { ATTENDANCE_STATUSES } from '../attendanceDaily';

export const workSchedulesResource = defineResource({
  name: 'workSchedules',
  table: 'work_schedules',
  api: '/event/attendance/work-schedules',
  route: '/attendance/work-schedule',
  section: 'attendance',
  label: { one: 'Work schedule', many: 'Work schedules' },
  icon: 'calendar',
  privileges: PRIV.workSchedules,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another work schedule',
      placeholder: 'Office hours',
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    shifts: children({
      label: 'Working hours',
      table: 'work_schedule_shifts',
      parent: 'work_schedule_id',
      itemLabel: 'Shift',
      max: 21,
      fields: {
        day: choice(WEEKDAYS, { required: true, default: '1' }),
        start: timeOfDay('Start', 'start_time', '09:00'),
        end: timeOfDay('End', 'end_time', '17:00'),
      },
    }),
    // the payroll rules (contract/attendanceDaily.ts attendanceFigures): taken off worked time at most once a day
    breakMinutes: number({
      label: 'Unpaid break (minutes)',
      min: 0,
      max: 240,
      required: true,
      default: 60,
      sort: true,
      help: 'Taken off worked time once a day: the part of it in the middle of the shift that the day spans (on a day off, after 5 hours)',
    }),
    graceMinutes: number({
      label: 'Late after (minutes)',
      min: 0,
      max: 120,
      required: true,
      default: 5,
      help: 'A clock-in this long after the start is not yet late',
    }),
    active: switchField({ label: 'In use', default: true, sort: true }),
  },
  list: { title: ['name'], columns: ['description', 'shifts', 'breakMinutes', 'graceMinutes', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Work schedule', fields: ['name', 'description', 'active'] },
    {
      title: 'Working hours',
      description: 'Each weekday\u2019s shift. An end before the start runs past midnight (a night shift).',
      fields: ['shifts', 'breakMinutes', 'graceMinutes'],
    },
  ],
  export: ['csv', 'ndjson'],
  screens: { viewersOpen: true },
});

/** Issue 50: where a leave record stands; only approved leave counts. */
export const LEAVE_STATES = [
  { value: 'requested', label: 'Waiting for approval' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  // taken back by the person (or whoever filed it) before anyone decided it
  { value: 'withdrawn', label: 'Withdrawn' },
] as const;

export const TEAM_MEMBERS = { table: 'team_members', team: 'team_id', identity: 'identity_id' } as const;

export const teamsResource = defineResource({
  name: 'teams',
  table: 'teams',
  api: '/event/attendance/teams',
  route: '/attendance/teams',
  section: 'attendance',
  label: { one: 'Team', many: 'Teams' },
  icon: 'people',
  privileges: PRIV.teams,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another team',
      placeholder: 'Warehouse day shift',
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
    workScheduleId: ref('workSchedules', { label: 'Work schedule', required: true, filter: true, onDelete: 'restrict' }),
    workScheduleName: text({ label: 'Work schedule', max: 100, virtual: true, readOnly: true, from: 'workScheduleId', sort: true }),
    members: refs('identities', {
      label: 'Members',
      through: { table: TEAM_MEMBERS.table, from: TEAM_MEMBERS.team, to: TEAM_MEMBERS.identity },
      maxItems: 10_000,
      onDelete: 'cascade',
    }),
    // issue 50: the operators who approve or reject the members' leave (holding 3.8.2; never their own)
    managers: refs('operators', { label: 'Leave approvers', through: { table: 'team_managers', from: 'team_id', to: 'user_id' }, maxItems: 50 }),
    active: switchField({ label: 'In use', default: true, sort: true }),
  },
  list: { title: ['name'], columns: ['workScheduleName', 'members', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Team', fields: ['name', 'description', 'workScheduleId', 'active'] },
    { title: 'Members', description: 'Staff who work this team\u2019s schedule.', fields: ['members'] },
    { title: 'Leave approvers', description: 'Operators who approve or reject the members\u2019 leave; nobody approves their own.', fields: ['managers'] },
  ],
  export: ['csv', 'ndjson'],
  screens: { viewersOpen: true },
});

export const leaveCategoriesResource = defineResource({
  name: 'leaveCategories',
  table: 'leave_categories',
  api: '/event/attendance/leave-categories',
  route: '/attendance/leave-category',
  section: 'attendance',
  label: { one: 'Leave category', many: 'Leave categories' },
  icon: 'tag',
  privileges: PRIV.leaveCategories,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another leave category',
      placeholder: 'Annual leave',
    }),
    code: text({
      max: 10,
      required: true,
      upper: true,
      pattern: /^[A-Z0-9-]{1,10}$/,
      help: 'Up to 10 capital letters, digits or -, shown on timesheets',
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the code of another leave category',
      placeholder: 'AL',
    }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Who may take it and how to ask for it' }),
    paid: switchField({ label: 'Paid', default: true }),
    daysPerYear: number({ label: 'Days a year', min: 0, max: 366, sort: true, help: 'Empty: no yearly allowance' }),
    active: switchField({ label: 'In use', default: true, sort: true }),
  },
  list: { title: ['name'], columns: ['code', 'paid', 'daysPerYear', 'active', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Leave category',
      description: 'A kind of leave staff may take, and how many days of it a year.',
      fields: ['name', 'code', 'paid', 'daysPerYear', 'active', 'description'],
    },
  ],
  export: ['csv', 'ndjson'],
  screens: { viewersOpen: true },
});

/**
 * Leave [3.8.x]: a member of staff's days off in one category. The spec gives view (3.8.0) and add (3.8.1) and a
 * view/{id} page: whoever may add leave may correct a record there; a holder of 3.8.0 alone sees it read-only.
 */
export const leaveResource = defineResource({
  name: 'leave',
  table: 'leave_records',
  api: '/event/attendance/leave',
  route: '/attendance/leave',
  section: 'attendance',
  label: { one: 'Leave', many: 'Leave' },
  icon: 'airplane',
  // 3.8.3 (issue 50): a member of staff lists, opens and files only their own leave
  privileges: { view: PRIV.leave.view, add: PRIV.leave.add, edit: PRIV.leave.add, own: PRIV.leave.request },
  scope: { tenant: true },
  scopes: [
    {
      name: 'waitingForMe',
      label: 'Waiting for me',
      kind: 'approvable',
      person: 'identityId',
      privilege: PRIV.leave.approve,
      when: { field: 'status', values: ['requested'] },
    },
    { name: 'mine', label: 'My leave', kind: 'mine', person: 'identityId' },
  ],
  timestamps: true,
  fields: {
    // deleting a member of staff deletes their leave with them, as their team memberships go (nothing else of theirs
    // stays behind to refuse it)
    identityId: ref('identities', { label: 'Who', required: true, filter: true, onDelete: 'cascade' }),
    identityName: text({ label: 'Who', max: 200, virtual: true, readOnly: true, from: 'identityId', sort: true }),
    categoryId: ref('leaveCategories', { label: 'Category', required: true, filter: true, onDelete: 'restrict' }),
    categoryName: text({ label: 'Category', max: 100, virtual: true, readOnly: true, from: 'categoryId', sort: true }),
    fromDate: date({ label: 'From', required: true, sort: true }),
    toDate: date({ label: 'To', required: true, sort: true, help: 'The last day of leave (the same day for one day)' }),
    note: text({ max: 500, widget: 'textarea', wide: true, search: true, placeholder: 'Family wedding' }),
    // issue 50: requested, then approved or rejected by a manager of the person's team (server/resources/leave.ts);
    // only approved leave counts in daily attendance, timesheets and summaries
    status: choice(LEAVE_STATES, { required: true, readOnly: true, sort: true, filter: true }),
    requestedBy: text({ label: 'Requested by', max: 200, readOnly: true, virtual: true }),
    decidedBy: text({ label: 'Decided by', max: 200, readOnly: true, virtual: true }),
    decidedAt: timestamp({ label: 'Decided' }),
    decisionNote: text({ label: 'Approver\u2019s note', max: 500, readOnly: true }),
  },
  rules: [notBefore('toDate', 'fromDate')],
  // (the state first: at 390 px it shows beside the name without a scroll, what a member of staff looks for)
  list: { title: ['identityName'], columns: ['status', 'categoryName', 'fromDate', 'toDate', 'decidedBy', 'note', 'updatedAt'], sort: ['fromDate', 'desc'] },
  form: [
    {
      title: 'Leave',
      description: 'Days a member of staff is away, in one leave category.',
      fields: ['identityId', 'categoryId', 'fromDate', 'toDate', 'note'],
    },
  ],
  export: ['csv', 'ndjson'],
  // §2 "/leave/view/{id} [3.8.0]": the view code opens it; whoever may add leave (3.8.1) corrects it there too
  screens: {
    viewersOpen: true,
    editCodes: [PRIV.leave.view, PRIV.leave.request], // (3.8.3: a member of staff's own, the server keeps them to it)
    editRoute: '/attendance/leave/view/:id',
    editTitle: 'View leave',
    addTitle: 'Add leave',
    editDescription: 'One leave record; whoever may add leave corrects it here.',
    recordSummary: ['status', 'requestedBy', 'createdAt', 'decidedBy', 'decidedAt', 'decisionNote'],
    recordActions: [
      {
        action: 'approve',
        label: 'Approve',
        privilege: PRIV.leave.approve,
        icon: 'tick',
        intent: 'success',
        when: { field: 'status', values: ['requested'] },
        reason: { label: 'Note (the person sees it)', required: false, max: 500, placeholder: 'Enjoy the wedding' },
        done: 'Approved: {name}\u2019s leave counts in the timesheet',
      },
      {
        action: 'reject',
        label: 'Reject',
        privilege: PRIV.leave.approve,
        icon: 'cross',
        intent: 'danger',
        when: { field: 'status', values: ['requested'] },
        reason: { label: 'Why (the person sees it)', required: true, max: 500, placeholder: 'Stock-take that week: pick another' },
        done: 'Rejected: {name}\u2019s leave',
      },
      {
        // the person's own request (or one they filed), while nobody has decided it
        action: 'withdraw',
        label: 'Withdraw',
        privilege: PRIV.leave.request,
        icon: 'undo',
        when: { field: 'status', values: ['requested'] },
        reason: { label: 'Why (the approvers see it)', required: false, max: 500, placeholder: 'The wedding moved to spring' },
        done: 'Withdrawn: {name}\u2019s leave request',
      },
    ],
  },
});

/**
 * The timesheet: one row per member of staff per day, written by Build Timesheet [3.3] from daily attendance and kept
 * for payroll; HR amends a day at /attendance/amend-timesheet [3.4] (a forgotten badge-in): the in and out times with
 * the reason, the server working out the status and time worked again (server/resources/timesheet.ts). Never added
 * by hand or deleted; a rebuilt period keeps the amended days.
 */
export const timesheetResource = defineResource({
  name: 'timesheet',
  table: 'timesheet_entries',
  api: '/event/attendance/timesheet',
  route: '/attendance/amend-timesheet',
  section: 'attendance',
  label: { one: 'Timesheet day', many: 'Timesheet days' },
  icon: 'edit',
  privileges: { view: PRIV.amendTimesheet, edit: PRIV.amendTimesheet },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    identityName: text({ label: 'Name', max: 200, required: true, readOnly: true, search: true, sort: true }),
    employeeNo: text({ label: 'Employee no.', max: 64, readOnly: true, search: true }),
    team: text({ max: 100, required: true, readOnly: true, sort: true }),
    day: date({ required: true, readOnly: true, sort: true, filter: true }),
    shiftStart: text({ label: 'Shift start', max: 5, readOnly: true }),
    shiftEnd: text({ label: 'Shift end', max: 5, readOnly: true }),
    firstIn: datetime({ label: 'In' }),
    lastOut: datetime({ label: 'Out' }),
    status: choice(ATTENDANCE_STATUSES, { required: true, readOnly: true, sort: true, filter: true }),
    workedMinutes: number({ label: 'Worked (minutes)', readOnly: true, sort: true }),
    overtimeMinutes: number({ label: 'Overtime (minutes)', readOnly: true, required: true, default: 0, sort: true, help: 'The worked minutes of a day off' }),
    lateMinutes: number({ label: 'Late (minutes)', readOnly: true }),
    amended: switchField({ label: 'Amended', readOnly: true, default: false, filter: false }),
    amendReason: text({
      label: 'Why it was changed',
      max: 500,
      widget: 'textarea',
      wide: true,
      placeholder: 'Forgot the badge; came in with the morning shift',
    }),
    amendedBy: text({ label: 'Amended by', max: 200, readOnly: true, virtual: true }),
  },
  rules: [after('lastOut', 'firstIn', 'must be after the in time')],
  list: {
    title: ['identityName'],
    columns: ['day', 'team', 'status', 'firstIn', 'lastOut', 'workedMinutes', 'overtimeMinutes', 'amended'],
    sort: ['day', 'desc'],
  },
  form: [
    {
      title: 'Timesheet day',
      description: 'Correct the in and out times of this day and say why; the status and time worked follow from them.',
      fields: ['firstIn', 'lastOut', 'amendReason'],
    },
  ],
  export: ['csv', 'ndjson'],
  screens: {
    listTitle: 'Amend timesheet',
    editTitle: 'Amend timesheet day',
    recordSummary: ['identityName', 'day', 'team', 'shiftStart', 'shiftEnd', 'status', 'workedMinutes', 'overtimeMinutes', 'lateMinutes', 'amendedBy'],
  },
});

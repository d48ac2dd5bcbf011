// Parts the attendance screens share: worked time as h:mm, the team filter and what is wrong with a
// period.
import { HTMLSelect } from '@blueprintjs/core';
import { ATTENDANCE_SUMMARY_MAX_DAYS, periodProblem } from '../../../contract';
import { useReading } from '../../hooks/useReading';
import { tx } from '../../i18n';

export const hours = (m: number | null) => (m === null ? '' : `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`);
export const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const addDays = (ymd: string, days: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** What is wrong with the period `from`..`to` in the screen's words, or null: the contract's rules (periodProblem),
 *  the server's too. */
export function periodMessage(from: string, to: string): string | null {
  const problem = periodProblem(from, to);
  if (!problem) return null;
  if (problem.kind === 'not-a-date') return tx('Choose the first and last day.');
  if (problem.kind === 'backwards') return tx('The last day is before the first.');
  return tx('At most {n} days at once.', { n: ATTENDANCE_SUMMARY_MAX_DAYS });
}

/** Every team, or one (the client's teams by name). */
export function TeamSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const teams = useReading<{ items: { id: number; name: string }[] }>('teamChoices');
  return (
    <HTMLSelect
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label={tx('Team')}
      data-testid="attendance-team"
      options={[{ label: tx('Every team'), value: '' }, ...(teams.output?.items ?? []).map((t) => ({ label: t.name, value: String(t.id) }))]}
    />
  );
}

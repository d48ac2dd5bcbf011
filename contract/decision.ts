// What the access-decision engine (access/engine.ts) answers, shared with the console's "Why?" explainer
// (issue 12): a grant or a deny, the one reason that decided it, and the chain of checks that led there.
import type { SentenceValues } from './messages';

/** Every reason a swipe is granted or denied, in the order the engine checks them. */
export const DECISION_REASONS = [
  'granted',
  'wrong-card-format',
  'unknown-credential',
  'qr-invalid',
  'qr-expired',
  'credential-suspended',
  'credential-not-yet-valid',
  'credential-expired',
  'identity-inactive',
  'identity-not-yet-valid',
  'identity-expired',
  'door-locked-down',
  'threat-level',
  'pin-required',
  'wrong-pin',
  'no-access-group',
  'special-day',
  'outside-schedule',
  'anti-passback',
  'interlock-busy',
] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];

export const DECISION_LABELS: Record<DecisionReason, string> = {
  granted: 'Access granted',
  'wrong-card-format': 'Access denied: the card is not in a format this reader accepts',
  'unknown-credential': 'Access denied: unknown credential',
  'qr-invalid': 'Access denied: the QR code is not valid',
  'qr-expired': 'Access denied: the QR code is no longer current',
  'credential-suspended': 'Access denied: credential suspended',
  'credential-not-yet-valid': 'Access denied: credential not yet valid',
  'credential-expired': 'Access denied: credential expired',
  'identity-inactive': 'Access denied: identity not active',
  'identity-not-yet-valid': 'Access denied: identity not yet valid',
  'identity-expired': 'Access denied: identity expired',
  'door-locked-down': 'Access denied: door locked down',
  'threat-level': 'Access denied: threat level',
  'pin-required': 'Access denied: PIN required',
  'wrong-pin': 'Access denied: wrong PIN',
  'no-access-group': 'Access denied: no access group for this door',
  'special-day': 'Access denied: special day',
  'outside-schedule': 'Access denied: outside schedule',
  'anti-passback': 'Access denied: anti-passback',
  'interlock-busy': 'Access denied: another door of the interlock is open',
};

/** One check of the chain: what was looked at, whether it passed, and in words why: `detail` in English (logs, the
 *  API), with its sentence's key and values (issue 48: `why.credentialExpired`, `{ card, to }`, filled in
 *  access/), which the console's "Why?" says in the operator's language (zh-CN in src/i18n/sentences.ts). An edge sends
 *  its chain up with them (contract/edge.ts EdgeDecisionStep); an older edge's has none: said as its English. */
export interface DecisionStep {
  check: 'card-format' | 'credential' | 'qr' | 'identity' | 'door-mode' | 'pin' | 'access-group' | 'schedule' | 'anti-passback' | 'interlock';
  ok: boolean;
  detail: string;
  code?: string;
  values?: SentenceValues;
}

export interface Decision {
  granted: boolean;
  reason: DecisionReason;
  /** Who presented it, when the credential is known. */
  identityId: number | null;
  credentialId: number | null;
  /** The access group that granted (or, on a schedule deny, the ones that were looked at). */
  accessGroupIds: number[];
  /** Soft anti-passback: granted, but an alarm is due. */
  alarm: 'anti-passback' | null;
  steps: DecisionStep[];
}

/** The event code a swipe is stored with, per reason (contract/monitor.ts EVENT_CODES 5000–5013). */
export const DECISION_EVENT_CODES: Record<DecisionReason, number> = {
  granted: 5000,
  'unknown-credential': 5001,
  'credential-suspended': 5002,
  'credential-not-yet-valid': 5002,
  'credential-expired': 5002,
  'identity-inactive': 5003,
  'identity-not-yet-valid': 5003,
  'identity-expired': 5003,
  'door-locked-down': 5004,
  'threat-level': 5013,
  'pin-required': 5005,
  'wrong-pin': 5005,
  'no-access-group': 5006,
  'outside-schedule': 5007,
  'special-day': 5008,
  'anti-passback': 5009,
  'interlock-busy': 5010,
  'wrong-card-format': 5011,
  'qr-invalid': 5012,
  'qr-expired': 5012,
};
/** Event codes of swipes (granted or denied): the ones a "Why?" can explain. */
export const SWIPE_EVENT_CODES: readonly number[] = [...new Set(Object.values(DECISION_EVENT_CODES))];

/** GET /event/manage/events/:id/explain: the stored swipe and the decision re-run against today's configuration. */
export interface Explanation {
  eventId: number;
  /** what was stored with the event when it happened */
  stored: { reason: DecisionReason | null; decision: 'granted' | 'denied' | null; identityId: number | null };
  /** the same swipe decided again now (the configuration may have changed since) */
  now: Decision & { label: string };
  swipe: { doorId: number; doorName: string | null; card: string; at: string; side: 'entry' | 'exit' };
  identityName: string | null;
  /** Gatehouse Edge (issue 47): a swipe decided at the edge, as it was decided there: online or offline, with which
   *  snapshot version (built when), and the engine's chain of checks over that snapshot (absent from older edges) */
  edge?: {
    offline: boolean;
    snapshotVersion: number;
    snapshotBuiltAt: string | null;
    receivedAt: string | null;
    decided: { granted: boolean; reason: DecisionReason; label: string; steps: DecisionStep[] } | null;
  };
}

// The visitor watchlist's warning on a visitor's page (issue 50): the match with the entry's list, name, how it
// matched and its reason, the entry's photo beside the visitor's to compare; while it waits, whoever holds 1.5.4 lets the visitor in or refuses them with a reason (the
// visitor's commands actor, `…|watchlist-admit|<reason>`); afterwards it says what was decided.
import { useState } from 'react';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { hasPrivilege, PRIV, visitorsResource, type Visitor } from '../../../contract';
import { tx } from '../../i18n';
import './visitor.css';

const ACTIONS = visitorsResource.screens?.recordActions ?? [];

export function WatchlistCallout({
  visitor,
  held,
  busy,
  onDecide,
}: {
  visitor: Visitor;
  held: ReadonlySet<string>;
  busy: boolean;
  onDecide: (action: 'watchlist-admit' | 'watchlist-refuse', reason: string) => void;
}) {
  // visual: the reason as typed, and that a decision was tried without one
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  if (!visitor.watchlist) return null;
  const open = visitor.watchlist === 'open';
  const may = hasPrivilege(held, [PRIV.visitorWatchlist.decide]);
  const missing = tried && !reason.trim();
  return (
    <Callout
      intent={open || visitor.watchlist === 'refused' ? 'danger' : 'warning'}
      icon="eye-open"
      className="gh-mb"
      data-testid="visitor-watchlist"
      title={
        open
          ? tx('This visitor matches the visitor watchlist')
          : visitor.watchlist === 'admitted'
            ? tx('Let in after the watchlist check')
            : tx('Refused: on the watchlist')
      }
    >
      <p data-testid="visitor-watchlist-reason">{visitor.watchlistReason}</p>
      {visitor.watchlistPhoto && (
        <div className="gh-watchlist-photos" data-testid="visitor-watchlist-photos">
          <figure>
            {visitor.photo ? (
              <img src={visitor.photo} alt={tx('This visitor')} />
            ) : (
              <div className="gh-watchlist-photos__none bp6-text-muted">{tx('No photo')}</div>
            )}
            <figcaption>{tx('This visitor')}</figcaption>
          </figure>
          <figure>
            <img src={visitor.watchlistPhoto} alt={tx('The watchlist entry')} data-testid="visitor-watchlist-photo" />
            <figcaption>{tx('The watchlist entry')}</figcaption>
          </figure>
        </div>
      )}
      {open && <p>{tx('Security has been alerted. Compare the photo and date of birth, then let the visitor in or refuse them.')}</p>}
      {open && may && (
        <div className="gh-watchlist-decide">
          <FormGroup
            label={tx('Why (kept in the audit trail)')}
            labelFor="watchlist-reason"
            intent={missing ? 'danger' : 'none'}
            helperText={missing ? tx('Why (kept in the audit trail) is required') : undefined}
          >
            <InputGroup
              id="watchlist-reason"
              data-testid="watchlist-reason"
              value={reason}
              maxLength={500}
              intent={missing ? 'danger' : 'none'}
              placeholder={tx('Not the listed person: other date of birth')}
              onChange={(e) => setReason(e.target.value)}
            />
          </FormGroup>
          {ACTIONS.map((a) => (
            <Button
              key={a.action}
              icon={a.icon as never}
              intent={a.intent}
              loading={busy}
              disabled={busy}
              data-testid={`visitor-${a.action}`}
              style={{ marginRight: 8 }}
              onClick={() => {
                setTried(true);
                if (reason.trim()) onDecide(a.action as 'watchlist-admit' | 'watchlist-refuse', reason.trim());
              }}
            >
              {tx(a.label)}
            </Button>
          ))}
        </div>
      )}
    </Callout>
  );
}

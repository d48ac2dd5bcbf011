// The whole page waiting (a session restoring, a screen's code loading): used by the app and by the shell.
import { Spinner } from '@blueprintjs/core';

export function FullPageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="gh-fullpage-spinner" aria-busy="true" data-testid="page-loading">
      <Spinner size={40} />
      <span>{label}</span>
    </div>
  );
}

// §8: uncaught UI errors are caught here; the screen says what failed and offers a reload. In production they
// are reported (sample rate ERROR_SAMPLE_RATE) to the server's UI error list.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Code, NonIdealState } from '@blueprintjs/core';
import { reportUiError } from '../hooks/console';
import { tx } from '../i18n';

interface Props {
  children: ReactNode;
  where?: string;
}
interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null };
  static getDerivedStateFromError(error: Error): State {
    return { error };
  }
  componentDidCatch(error: Error, info: ErrorInfo): void {
    reportUiError(error, info.componentStack ?? '');
  }
  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="gh-error-boundary" data-testid="error-boundary">
        <NonIdealState
          icon="error"
          title={this.props.where ? tx('Something went wrong in {where}', { where: this.props.where }) : tx('Something went wrong')}
          description={
            <>
              <p>{tx('The screen stopped because of an unexpected error. It has been logged for the administrators.')}</p>
              <Code>{error.message || String(error)}</Code>
            </>
          }
          action={<Button intent="primary" icon="refresh" text={tx('Reload')} onClick={() => window.location.reload()} />}
        />
      </div>
    );
  }
}

// §8: an uncaught UI error (caught by src/app/ErrorBoundary.tsx) reported to the server's UI error list, in production
// and sampled at ERROR_SAMPLE_RATE; a failed report is dropped (it must never raise another error).
import { ERROR_SAMPLE_RATE } from '../../contract';
import { postUiError } from './endpoints';

export function reportUiError(error: Error, extra?: string): void {
  if (!import.meta.env.PROD || Math.random() >= ERROR_SAMPLE_RATE) return;
  postUiError({
    message: `${error.message || String(error)}`.slice(0, 2000) || 'Unknown error',
    stack: `${error.stack ?? ''}${extra ?? ''}`.slice(0, 20000),
    url: window.location.href.slice(0, 2000),
    userAgent: navigator.userAgent.slice(0, 500),
  }).catch(() => {});
}

// Saves a file the server sent (a report, a backup) as a download, under the name the server gave it.
import type { ServerFile } from '../hooks/answers';

export function saveFile({ blob, filename }: ServerFile): void {
  const url = URL.createObjectURL(blob);
  Object.assign(document.createElement('a'), { href: url, download: filename }).click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

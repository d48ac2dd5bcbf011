// Files the server sends (a scheduled report, a backup): the bytes, and the name the server's content-disposition gives
// them (one naming, on the server; the console saves under it: src/ui/saveFile.ts).
import { api } from './client';

export interface ServerFile {
  blob: Blob;
  filename: string;
}

export async function fileAt(path: string): Promise<ServerFile> {
  const r = await api.get(path, { responseType: 'blob' });
  const named = /filename="([^"]+)"/.exec(String(r.headers['content-disposition'] ?? ''));
  return { blob: r.data as Blob, filename: named?.[1] ?? path.split('/').filter(Boolean).slice(-2).join('-') };
}

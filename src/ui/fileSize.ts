// A file's size as people read it (a backup, a firmware image, a floor plan's picture): bytes, kB or MB.
export const fileSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : bytes >= 1000 ? `${Math.round(bytes / 1000)} kB` : `${bytes} B`;

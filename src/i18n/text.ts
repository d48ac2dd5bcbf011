export const zhText: Record<string, string> = {};

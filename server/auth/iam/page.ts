// The page a browser meets when a provider's sign-in is refused (issue 49): the reason in words, in the reader's
// language where it is known, and the way back to the sign-in page. It links to nowhere else (no open redirect).
import { IAM_REFUSALS_ZH } from '../../../contract';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The sentence in Simplified Chinese when the reader prefers it and it is known (templates with numbers too). */
function zhOf(message: string): string | null {
  if (IAM_REFUSALS_ZH[message]) return IAM_REFUSALS_ZH[message];
  for (const [en, zh] of Object.entries(IAM_REFUSALS_ZH)) {
    if (!en.includes('{')) continue;
    const names: string[] = [];
    const re = new RegExp(`^${en.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '(.+?)'))}$`);
    const m = re.exec(message);
    if (m) return names.reduce((out, n, i) => out.replace(`{${n}}`, m[i + 1]), zh);
  }
  return null;
}

export function refusalPage(message: string, acceptLanguage: string): string {
  const zh = /^\s*zh\b/i.test(acceptLanguage) ? zhOf(message) : null;
  const lang = zh ? 'zh-CN' : 'en';
  const title = zh ? '未能登录' : 'Sign-in refused';
  const back = zh ? '返回登录页面' : 'Back to the sign-in page';
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(title)} · Gatehouse</title></head><body>` +
    `<main><h1>${esc(title)}</h1><p role="alert" data-testid="iam-refusal">${esc(zh ?? message)}</p><p><a href="/login">${esc(back)}</a></p></main>` +
    `</body></html>`
  );
}

// The page a browser meets when a provider's sign-in is refused (issue 49): the reason in words, in the reader's
// language where it is known, and the way back to the sign-in page. It links to nowhere else (no open redirect).
// Issue 48: every refusal is a sentence with its key (server/auth/iam: fill), said by it: the key's zh-CN with the
// values filled in. A refusal without a key (none is made so) is shown as its English; English is never looked up.
import { IAM_REFUSALS_ZH, fillTemplate, type Sentence } from '../../../contract';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The refusal in Simplified Chinese when its key has one (contract/iam.ts), else null. */
function zhOf(said: string | Sentence): string | null {
  if (typeof said === 'string') return null;
  const template = IAM_REFUSALS_ZH[said.code];
  return template ? fillTemplate(template, said.values) : null;
}

/** The page of a refusal: `said` is its English, or its sentence with key and values (server/http/kit.ts saidOf). */
export function refusalPage(said: string | Sentence, acceptLanguage: string): string {
  const message = typeof said === 'string' ? said : said.message;
  const zh = /^\s*zh\b/i.test(acceptLanguage) ? zhOf(said) : null;
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

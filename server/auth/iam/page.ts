// The page a browser meets when a provider's sign-in is refused (issue 49): the reason in words, in the reader's
// language where it is known, and the way back to the sign-in page. It links to nowhere else (no open redirect).
// Issue 48: a sentence with values is said by its key (its values filled into the key's zh-CN), a fixed one looked up
// whole; the English is never parsed back apart.
import { IAM_REFUSALS_ZH, fillTemplate, type Sentence } from '../../../contract';

/** zh-CN templates of the refusals said with values, by key (the same words as contract/iam.ts keeps). */
const ZH_BY_KEY: Record<string, string> = {
  'iam.tooManyGroups': IAM_REFUSALS_ZH['The identity provider sent {count} groups; at most {max} are read, so the sign-in was refused'],
  'iam.groupNameTooLong': IAM_REFUSALS_ZH['The identity provider sent a group that is not a name of at most {max} characters'],
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The refusal in Simplified Chinese when it is known: a sentence with values by its key, a fixed one by its words. */
function zhOf(said: string | Sentence): string | null {
  if (typeof said !== 'string') return ZH_BY_KEY[said.code] ? fillTemplate(ZH_BY_KEY[said.code], said.values) : null;
  return IAM_REFUSALS_ZH[said] && !said.includes('{') ? IAM_REFUSALS_ZH[said] : null;
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

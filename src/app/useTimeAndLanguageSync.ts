// Issue 10: the session's zone (profile, else client, else browser) and language, followed into the stores the
// views format with (src/ui/time.ts, src/i18n). Mounted once at the root.
import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import type { DisplayLocale } from '../../contract';
import { selectDisplayZone, selectIsSignedIn, selectLocale } from '../../machines/session.selectors';
import { loadLocale, setLocale } from '../i18n';
import { browserZone, setDisplayZone } from '../ui/time';
import { useSystemActor } from '../hooks/useSystemActor';

const LOCALE_KEY = 'gatehouse.locale';
/** The language the sign-in screen speaks: the last signed-in user's on this browser. */
export function rememberedLocale(): DisplayLocale {
  try {
    return localStorage.getItem(LOCALE_KEY) === 'zh-CN' ? 'zh-CN' : 'en';
  } catch {
    return 'en';
  }
}

// a console remembered in Chinese fetches its language (i18next and the zh-CN dictionaries, src/i18n/engine.ts) as the
// console's code is evaluated, not after its first render: an English one never does (issue 48)
if (rememberedLocale() === 'zh-CN') loadLocale('zh-CN').catch(() => undefined);

export function useTimeAndLanguageSync(): void {
  const session = useSystemActor('session');
  const signedIn = useSelector(session, selectIsSignedIn);
  const z = useSelector(session, (s) => selectDisplayZone(s, browserZone()));
  const locale = useSelector(session, selectLocale);
  useEffect(() => {
    setDisplayZone(z);
  }, [z]);
  useEffect(() => {
    const next = signedIn ? locale : rememberedLocale();
    void setLocale(next);
    document.documentElement.lang = next;
    if (signedIn)
      try {
        localStorage.setItem(LOCALE_KEY, next);
      } catch {
        /* private mode */
      }
  }, [signedIn, locale]);
}

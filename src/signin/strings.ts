// The sign-in page's words in both languages: the one table the sign-in page of a cold load (./SignInPage.tsx, which starts
// before the console's i18next and its dictionaries) and the console's own sign-in form (src/screens/auth) both draw.
export type SignInLocale = 'en' | 'zh-CN';

export interface SignInText {
  /** The brand name beside the logo. */
  brand: string;
  pitch: string;
  doors: string;
  identities: string;
  attendance: string;
  /** The form's title on /login (English in both languages, as the console shows it). */
  title: string;
  /** The form's title on /login-remake. */
  welcomeBack: string;
  sub: string;
  /** The form's accessible name. */
  formLabel: string;
  username: string;
  password: string;
  forgotPassword: string;
  signIn: string;
  /** The document's title. */
  pageTitle: string;
  /** Issue 49: between the password form and the identity providers' buttons. */
  or: string;
  /** Issue 49: an identity provider's button (`{name}`: the provider's name). */
  signInWith: string;
  /** Issue 49: a sign-in with a passkey alone. */
  passkey: string;
  /** The console's code could not be fetched after a submit. */
  loadFailed: string;
}

export const SIGN_IN_TEXT: Record<SignInLocale, SignInText> = {
  en: {
    brand: 'Gatehouse',
    pitch: 'Access, security and attendance in one console.',
    doors: 'Doors, controllers and readers, live',
    identities: 'Identities, credentials and access groups',
    attendance: 'Time and attendance, visitors and reports',
    title: 'Sign in to Gatehouse',
    welcomeBack: 'Welcome back',
    sub: 'Use your operator account.',
    formLabel: 'Sign in',
    username: 'Username',
    password: 'Password',
    forgotPassword: 'Forgot password?',
    signIn: 'Sign in',
    pageTitle: 'Sign in · Gatehouse',
    or: 'or',
    signInWith: 'Sign in with {name}',
    passkey: 'Sign in with a passkey',
    loadFailed: 'The console could not be loaded. Check the connection and sign in again.',
  },
  'zh-CN': {
    brand: 'Gatehouse 门禁',
    pitch: '门禁、安防与考勤，尽在一个控制台。',
    doors: '门、控制器和读卡器，实时掌握',
    identities: '身份、凭证和门禁组',
    attendance: '考勤、访客和报表',
    title: 'Sign in to Gatehouse',
    welcomeBack: '欢迎回来',
    sub: '请使用您的操作员账号。',
    formLabel: '登录',
    username: '用户名',
    password: '密码',
    forgotPassword: '忘记密码？',
    signIn: '登录',
    pageTitle: '登录 · Gatehouse',
    or: '或',
    signInWith: '使用 {name} 登录',
    passkey: '使用通行密钥登录',
    loadFailed: '无法加载控制台。请检查网络连接后重新登录。',
  },
};

/** The key under which the console remembers the last signed-in user's language on this browser. */
export const LOCALE_KEY = 'gatehouse.locale';

/** The language the sign-in page speaks, as the console picks it: the last signed-in user's on this browser. */
export function rememberedLocale(storage?: Pick<Storage, 'getItem'>): SignInLocale {
  try {
    return (storage ?? localStorage).getItem(LOCALE_KEY) === 'zh-CN' ? 'zh-CN' : 'en';
  } catch {
    return 'en';
  }
}

// IAM mode (issue 49): what the sign-in page is told of the identity providers, and the ticket the console exchanges
// for its session when a provider has signed the operator in (server/auth/iam, machines/session.ts).
import { array, enums, nullable, object, optional, pattern, size, string, type as shape, type Infer } from 'superstruct';
import { LoginResponse } from './schemas';

export const IAM_KINDS = ['oidc', 'saml'] as const;

/** One provider offered on the sign-in page: "Sign in with <name>" goes to `start`. */
export const IamProvider = object({ key: size(string(), 1, 64), kind: enums(IAM_KINDS), name: size(string(), 1, 200), start: size(string(), 1, 300) });
export type IamProvider = Infer<typeof IamProvider>;
export const IamProviders = array(IamProvider);

/** Where the provider's sign-in hands over: `/login#iam=<ticket>`; the console sends the ticket back once. */
export const IAM_TICKET_PARAM = 'iam';
export const IamExchangeRequest = object({ ticket: pattern(size(string(), 20, 100), /^[A-Za-z0-9_-]+$/) });
export type IamExchangeRequest = Infer<typeof IamExchangeRequest>;
/** The session, as a password sign-in answers it, and the console path the sign-in was started from. */
export const IamExchangeResponse = shape({ ...LoginResponse.schema, returnTo: optional(nullable(string())) });
export type IamExchangeResponse = Infer<typeof IamExchangeResponse>;

/**
 * The server's words when a provider's sign-in is refused, in Simplified Chinese: the refusal page says them in the
 * reader's language (server/auth/iam/page.ts), and the console's translations take them in (src/i18n).
 */
export const IAM_REFUSALS_ZH: Record<string, string> = {
  'No such identity provider is configured': '未配置此身份提供方',
  'The return address must be a page of this console': '返回地址必须是本控制台的页面',
  'The identity provider did not answer: try again later, or sign in with a password': '身份提供方没有响应：请稍后再试，或使用密码登录',
  'The sign-in came back without its state: start it again from the sign-in page': '登录返回时缺少状态参数：请从登录页面重新开始',
  'This sign-in is unknown, was already used or has expired: start it again from the sign-in page': '此次登录未知、已被使用或已过期：请从登录页面重新开始',
  'This sign-in was started in another browser: start it again from the sign-in page': '此次登录是在另一个浏览器中开始的：请从登录页面重新开始',
  'The identity provider of this sign-in is no longer configured': '此次登录的身份提供方已不再配置',
  'The identity provider did not sign you in: start again from the sign-in page': '身份提供方未让您登录：请从登录页面重新开始',
  "The identity provider's answer was refused: it failed Gatehouse's checks": '身份提供方的应答被拒绝：它未通过 Gatehouse 的检查',
  'The identity provider sent a groups claim that is not a list': '身份提供方发送的组声明不是列表',
  'The identity provider sent {count} groups; at most {max} are read, so the sign-in was refused':
    '身份提供方发送了 {count} 个组；最多读取 {max} 个，因此登录被拒绝',
  'The identity provider sent a group that is not a name of at most {max} characters': '身份提供方发送的某个组不是不超过 {max} 个字符的名称',
  'No free username could be made for this person': '无法为此人生成可用的用户名',
  'You are in none of the groups of your organisation that give access to Gatehouse, so no account was made for you. Ask your administrator to add you to one.':
    '您不在贵组织任何可访问 Gatehouse 的组中，因此未为您创建账户。请让管理员将您加入其中一个组。',
  'This account is disabled in Gatehouse: ask your administrator.': '此账户已在 Gatehouse 中停用：请联系管理员。',
};

// IAM mode (issue 49): what the sign-in page is told of the identity providers, and the ticket the console exchanges
// for its session when a provider has signed the operator in (server/auth/iam, machines/session.ts).
import { array, enums, nullable, object, optional, pattern, size, string, type as shape, type Infer } from './structs';
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
 * The server's words when a provider's sign-in is refused, in Simplified Chinese, by their key (issue 48: the server says
 * each by its key, English and values, server/auth/iam): the refusal page says them in the reader's language by the key
 * (server/auth/iam/page.ts), and the console's server sentences take them in (src/i18n/sentences.ts).
 */
export const IAM_REFUSALS_ZH: Record<string, string> = {
  'iam.noSuchProvider': '未配置此身份提供方',
  'iam.returnNotConsole': '返回地址必须是本控制台的页面',
  'iam.noAnswer': '身份提供方没有响应：请稍后再试，或使用密码登录',
  'iam.noState': '登录返回时缺少状态参数：请从登录页面重新开始',
  'iam.signInUnknown': '此次登录未知、已被使用或已过期：请从登录页面重新开始',
  'iam.otherBrowser': '此次登录是在另一个浏览器中开始的：请从登录页面重新开始',
  'iam.providerGone': '此次登录的身份提供方已不再配置',
  'iam.notSignedIn': '身份提供方未让您登录：请从登录页面重新开始',
  'iam.answerRefused': '身份提供方的应答被拒绝：它未通过 Gatehouse 的检查',
  'iam.groupsNotList': '身份提供方发送的组声明不是列表',
  'iam.tooManyGroups': '身份提供方发送了 {count} 个组；最多读取 {max} 个，因此登录被拒绝',
  'iam.groupNameTooLong': '身份提供方发送的某个组不是不超过 {max} 个字符的名称',
  'iam.noMappedGroup': '您不在贵组织任何可访问 Gatehouse 的组中，因此未为您创建账户。请让管理员将您加入其中一个组。',
  'iam.signOutRefused': '身份提供方的注销消息被拒绝：未通过 Gatehouse 的检查',
  'iam.providerSessionKept': '您已退出 Gatehouse，但身份提供方未结束其自身的会话',
  'iam.signOutExpected': '应收到身份提供方的注销消息',
  'username.noneFree': '无法为此人生成可用的用户名',
  'account.disabled': '此账户已在 Gatehouse 中停用：请联系管理员。',
};

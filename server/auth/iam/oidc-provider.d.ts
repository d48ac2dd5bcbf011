// The little of oidc-provider (a devDependency without types of its own) the test provider uses (./testIdp.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    status: number;
    body: unknown;
    // oidc-provider's request context: its session, client, result and the provider itself
    oidc: {
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      client?: { clientId: string };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }
  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: { new (init: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}

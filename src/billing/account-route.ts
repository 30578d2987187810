import type { FastifyInstance } from "fastify";
import type { AccountService } from "../accounts/account-service.ts";
import { apiPrefix } from "../http/api-conventions.ts";
import { principalOf } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import type { KeyService } from "../keys/key-service.ts";
import { maxLiveKeys } from "../keys/key-store.ts";
import type { PriceList } from "./prices.ts";

export interface UsageSummary {
  windowDays: number;
  refreshedAt: string | null;
  byKind: { kind: string; calls: number; spendPence: number }[];
  totalCalls: number;
  totalSpendPence: number;
}

export interface AutoTopUpSettings {
  enabled: boolean;
  thresholdPence: number | null;
  amountPence: number | null;
}

/** GET /api/v1/account: free, callable before any top-up; the balance is live, usage is the rollup. */
export function registerAccountRoute(
  app: FastifyInstance,
  dependencies: {
    accounts: AccountService;
    keys: KeyService;
    prices: () => Promise<PriceList>;
    usageSummary: (accountId: string) => Promise<UsageSummary>;
    autoTopUp: (accountId: string) => Promise<AutoTopUpSettings>;
  },
): void {
  app.get(
    `${apiPrefix}/account`,
    {
      config: { guard: { scope: "account:read", ai: false, requiresDataUnlock: false } },
      schema: { tags: ["Account"], summary: "The account's balance, usage, keys and prices" },
    },
    async (request) => {
      const principal = principalOf(request);
      const [account, live, usage, autoTopUp] = await Promise.all([
        dependencies.accounts.byId(principal.accountId),
        dependencies.keys.countLive(principal.accountId),
        dependencies.usageSummary(principal.accountId),
        dependencies.autoTopUp(principal.accountId),
      ]);
      if (!account) throw new ApiError("internal_error");
      const prices = await dependencies.prices();
      return {
        id: account.id,
        name: account.name,
        billing: {
          dataUnlocked: account.dataUnlockedAt !== null,
          balancePence: account.balancePence,
          lifetimeSpendPence: account.lifetimeSpendPence,
          currency: "GBP",
          autoTopUp,
        },
        usage,
        keys: { live, max: maxLiveKeys },
        prices: {
          alignPence: prices.alignPence,
          genieChatPence: prices.genieChatPence,
          chatPence: prices.chatPence,
          questionSetPence: prices.questionSetPence,
        },
      };
    },
  );
}

import { createHmac, randomBytes } from "node:crypto";
import { newId, type Clock } from "../shared/ids.ts";
import type { AccountRow, AccountStore } from "./account-store.ts";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords.ts";

export interface Registration {
  email: string;
  password: string;
  name: string;
  organisation?: string | undefined;
  useCase: string;
}

const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000;

/** Developer sign-up and sign-in for the platform; sessions are opaque tokens stored only as HMACs. */
export class AccountService {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
    private readonly pepper: string,
  ) {}

  async register(input: Registration): Promise<AccountRow | "email_taken"> {
    if (await this.store.byEmail(input.email)) return "email_taken";
    return this.store.insert({
      id: newId("acct"),
      email: input.email.trim(),
      name: input.name.trim(),
      organisation: input.organisation?.trim() || null,
      useCase: input.useCase.trim(),
      passwordHash: await hashPassword(input.password),
      termsAcceptedAt: this.clock.now(),
    });
  }

  async verifyCredentials(email: string, password: string): Promise<AccountRow | null> {
    const account = await this.store.byEmail(email);
    const matches = await verifyPassword(password, account?.passwordHash ?? decoyPasswordHash);
    if (!account || !matches || account.status === "closed") return null;
    return account;
  }

  async startSession(accountId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(this.clock.now().getTime() + sessionLifetimeMs);
    await this.store.createSession({ tokenHash: this.sessionHash(token), accountId, expiresAt });
    return { token, expiresAt };
  }

  async accountForSession(token: string | undefined): Promise<AccountRow | null> {
    if (!token) return null;
    const account = await this.store.accountForSession(this.sessionHash(token), this.clock.now());
    return account && account.status !== "closed" ? account : null;
  }

  async endSession(token: string | undefined): Promise<void> {
    if (token) await this.store.deleteSession(this.sessionHash(token));
  }

  byId(accountId: string): Promise<AccountRow | null> {
    return this.store.byId(accountId);
  }

  private sessionHash(token: string): string {
    return createHmac("sha256", this.pepper).update(`session:${token}`).digest("hex");
  }
}

/**
 * The closed catalogue of error codes: one table from which responses and the OpenAPI document are both built.
 * Routes and services raise `ApiError`s (or return typed outcomes that routes turn into them); one handler
 * renders every error body.
 */
export const errorCatalogue = {
  invalid_json: { status: 400, message: "The request body is not valid JSON." },
  invalid_request: { status: 400, message: "The request is not valid." },
  missing_api_key: {
    status: 401,
    message: "No API key was sent. Send it as 'Authorization: Bearer syl_live_…'.",
  },
  invalid_api_key: { status: 401, message: "The API key is not recognised." },
  revoked_api_key: { status: 401, message: "The API key has been revoked." },
  topup_required: {
    status: 402,
    message: "The data endpoints unlock with the account's first top-up. Top up in the developer portal.",
  },
  insufficient_balance: {
    status: 402,
    message: "The account balance is below the price of this call. Top up in the developer portal.",
  },
  insufficient_scope: { status: 403, message: "The API key does not have the scope this endpoint needs." },
  account_suspended: { status: 403, message: "Access for this account has been ended by the service." },
  csrf_failed: { status: 403, message: "The request is missing a valid X-CSRF-Token header." },
  not_found: { status: 404, message: "There is no such route." },
  subject_not_found: { status: 404, message: "There is no subject with that id." },
  subtopic_not_found: { status: 404, message: "There is no subtopic with that id." },
  genie_not_found: { status: 404, message: "There is no genie with that short name." },
  subscription_not_found: { status: 404, message: "This account has no monthly top-up to cancel." },
  method_not_allowed: { status: 405, message: "This route does not accept that method." },
  idempotency_conflict: {
    status: 409,
    message: "This Idempotency-Key was used with a different body, or its first request is still in flight.",
  },
  key_limit_reached: {
    status: 409,
    message: "An account may hold at most 5 live API keys. Revoke one first.",
  },
  email_taken: { status: 409, message: "An account with this email address already exists." },
  subscription_exists: {
    status: 409,
    message: "This account already has a monthly top-up. Cancel it before starting another.",
  },
  payment_method_required: {
    status: 409,
    message: "Automatic top-up needs a saved card. Save a card first.",
  },
  endpoint_withdrawn: { status: 410, message: "This endpoint has been withdrawn by the operator." },
  payload_too_large: { status: 413, message: "The request body is larger than 256 KiB." },
  unsupported_media_type: {
    status: 415,
    message: "Send the request body as 'Content-Type: application/json'.",
  },
  topic_not_covered: {
    status: 422,
    message: "The question engine cannot cover that topic. Try a subtopicId or a curriculum topic.",
  },
  rate_limited: { status: 429, message: "Too many requests. Wait for the time in Retry-After." },
  unauthenticated: { status: 401, message: "Sign in first." },
  invalid_credentials: { status: 401, message: "The email address or password is not correct." },
  internal_error: { status: 500, message: "Something went wrong on our side. You have not been charged." },
  model_unavailable: {
    status: 503,
    message: "The model provider failed or timed out. You have not been charged; try again shortly.",
  },
  service_unavailable: {
    status: 503,
    message: "The service is temporarily unavailable. You have not been charged; try again shortly.",
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  requestId: string;
  param?: string;
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    options: {
      message?: string;
      param?: string;
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message);
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.param = options.param;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: error.code,
    message: error.status >= 500 ? errorCatalogue[error.code].message : error.message,
    requestId,
    ...(error.param === undefined ? {} : { param: error.param }),
    ...error.extra,
  };
}

/** Error codes an endpoint can answer with, for its OpenAPI responses. */
export function statusesFor(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

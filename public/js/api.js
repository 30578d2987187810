/** The portal's only way to the server: the platform API (session cookie + CSRF) and /api/v1 (a pasted key). */

function readCookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

async function parse(response) {
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  return { status: response.status, ok: response.ok, data: data ?? {} };
}

const networkFailure = {
  status: 0,
  ok: false,
  data: {
    error: "network_error",
    message: "The server could not be reached. Check your connection and try again.",
  },
};

/** Calls /platform/api: state-changing requests echo the readable csrf_token cookie (double submit). */
export async function platform(method, path, body) {
  const headers = { accept: "application/json" };
  if (method !== "GET") {
    if (!readCookie("csrf_token"))
      await fetch("/platform/api/me", { credentials: "same-origin" }).catch(() => {});
    const token = readCookie("csrf_token");
    if (token) headers["x-csrf-token"] = token;
  }
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await fetch(`/platform/api${path}`, {
      method,
      headers,
      credentials: "same-origin",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return await parse(response);
  } catch {
    return networkFailure;
  }
}

/** Calls /api/v1 with a bearer key. Returns the raw Response for streams, parsed JSON otherwise. */
export async function v1(key, method, path, body, { raw = false } = {}) {
  const headers = { authorization: `Bearer ${key}`, accept: "application/json, application/x-ndjson" };
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: "omit",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return raw ? { response } : await parse(response);
  } catch {
    return raw ? { failure: networkFailure } : networkFailure;
  }
}

/** One readable sentence for an error response, with the code developers branch on. */
export function describeError(result) {
  const { error, message } = result.data ?? {};
  if (result.status === 0) return message;
  return `${result.status} ${error ?? "error"}: ${message ?? "The request failed."}`;
}

/**
 * Reads an NDJSON body line by line as it arrives, calling onEvent with each parsed object.
 * A partial line is kept until its newline comes.
 */
export async function readNdjson(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffered += decoder.decode(value ?? new Uint8Array(), { stream: !done });
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onEvent(JSON.parse(line));
      newline = buffered.indexOf("\n");
    }
    if (done) break;
  }
  if (buffered.trim()) onEvent(JSON.parse(buffered));
}

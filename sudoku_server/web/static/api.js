// The JSON API (/api/v1/, docs/HTTP.md), relative to the page so that a path prefix
// in front of the server keeps working.

/** Milliseconds spent waiting for the API (request sent to reply read) since the page last set it to 0. */
export const waited = { ms: 0 };

/**
 * POST `body` to api/v1/<verb>; resolves to the reply object, an error reply being
 * {"error": {"code", "message", "line"}} as the server sends it. A reply that is not
 * JSON (a proxy's page) becomes an error object with code "http".
 */
export async function call(verb, body) {
  const start = performance.now();
  try {
    return await send(verb, body);
  } finally {
    waited.ms += performance.now() - start;
  }
}

async function send(verb, body) {
  const response = await fetch(`api/v1/${verb}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let reply;
  try {
    reply = await response.json();
  } catch {
    reply = null;
  }
  if (!response.ok && !reply?.error) {
    const wait = response.headers.get("Retry-After");
    const message = `HTTP ${response.status} ${response.statusText}` + (wait ? `; retry after ${wait} s` : "");
    reply = { error: { code: "http", message, line: null } };
  }
  return reply;
}

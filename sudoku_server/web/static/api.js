// The JSON API (/api/v1/, docs/HTTP.md), relative to the page so that a path prefix
// in front of the server keeps working.

/** Milliseconds spent waiting for the API (request sent to reply read) since the page last set it to 0. */
export const waited = { ms: 0 };

/** The error of a request that got no reply at all (the server down, the network gone): fetch's own
 * words ("TypeError: Failed to fetch") say nothing to a person. */
export const UNREACHABLE = {
  code: "network",
  message: "the server could not be reached (is it running, is the network up?); the puzzle is kept, try again",
  line: null,
};

/**
 * POST `body` to api/v1/<verb>; resolves to the reply object, an error reply being
 * {"error": {"code", "message", "line"}} as the server sends it. A reply that is not
 * JSON (a proxy's page) becomes an error object with code "http"; no reply at all
 * (fetch rejects) the error UNREACHABLE. `signal` (an AbortSignal) cancels the
 * request: the promise then rejects with an AbortError.
 */
export async function call(verb, body, signal = undefined) {
  const start = performance.now();
  try {
    let response;
    try {
      response = await fetch(`api/v1/${verb}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (error?.name === "AbortError") throw error;
      return { error: { ...UNREACHABLE } }; // fetch rejects (a TypeError) only when no reply came
    }
    return await reply(response);
  } finally {
    waited.ms += performance.now() - start;
  }
}

/** GET api/v1/<path> as JSON; null when the server has no such endpoint (404) or does not answer. */
export async function get(path) {
  try {
    const response = await fetch(`api/v1/${path}`, { headers: { Accept: "application/json" } });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function reply(response) {
  let answer;
  try {
    answer = await response.json();
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    answer = null;
  }
  if (!response.ok && !answer?.error) {
    const wait = response.headers.get("Retry-After");
    const message = `HTTP ${response.status} ${response.statusText}` + (wait ? `; retry after ${wait} s` : "");
    answer = { error: { code: "http", message, line: null } };
  }
  return answer;
}

// The JSON API. Every call resolves to the parsed answer or throws an Error whose message is
// the server's own one-line reason.
export class ApiError extends Error {
  constructor(message, status, retryAfter = 0, data = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;  // seconds the server asked to wait (503, 429), or 0
    this.data = data;  // the answer's JSON: some errors say more than their message
  }
}

// The server cannot answer now but will (its database is back, it has restarted behind a
// proxy): the same request may be sent again, after a wait.
export function passing(error) {
  return error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504;
}

export async function api(method, path, body, headers = {}) {
  const options = { method, headers: { ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError("cannot reach the server", 0);
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: reported below */ }
  if (!response.ok) {
    const wait = Number(response.headers.get("Retry-After")) || 0;
    throw new ApiError((data && data.error) || `server answered ${response.status}`, response.status, wait, data);
  }
  return data;
}

// The JSON API. Every call resolves to the parsed answer or throws an Error whose message is
// the server's own one-line reason.
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function api(method, path, body) {
  const options = { method, headers: {} };
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
    throw new ApiError((data && data.error) || `server answered ${response.status}`, response.status);
  }
  return data;
}

// The one way the pages call the API: through the console's relay at the
// same origin, which checks the route and signs the call. Errors come back
// as the API wrote them ({"error":{"code","message"}}) in an APIError.

// CALLER_HEADER marks the console's own calls (the relay refuses others).
const CALLER_HEADER = 'X-Agentmem-Console';

// APIError is a failed call: the HTTP status and the API's error code and
// message, shown to people as they are.
export class APIError extends Error {
  constructor(status, code, message, method, path) {
    super(message);
    this.name = 'APIError';
    this.status = status;
    this.code = code;
    this.method = method;
    this.path = path;
  }
}

function statusCode(status) {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'http_error';
}

// segment encodes one path parameter.
export function segment(value) {
  return encodeURIComponent(String(value));
}

// agentPath is /api/agents/{agent}/{rest...}, every segment encoded.
export function agentPath(agent, ...rest) {
  return ['/api/agents', segment(agent), ...rest.map(segment)].join('/');
}

// call sends one request. query: an object (empty values left out);
// body: JSON-encoded; headers: extra request headers (If-Match,
// Idempotency-Key); accept: the media type asked for. It resolves to
// {status, data, text, headers}; a non-2xx answer rejects with APIError.
export async function call(method, path, { query, body, headers, accept, signal } = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const url = q.toString() ? `${path}?${q}` : path;
  const h = { [CALLER_HEADER]: '1', Accept: accept || 'application/json', ...(headers || {}) };
  const init = { method, headers: h, credentials: 'same-origin', cache: 'no-store', signal };
  if (body !== undefined) {
    h['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(url, init);
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new APIError(0, 'unreachable', `the console server did not answer (${err.message}); is agentmem console still running?`, method, path);
  }
  const text = resp.status === 204 ? '' : await resp.text();
  const type = resp.headers.get('Content-Type') || '';
  let data = null;
  if (text && type.includes('json')) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!resp.ok) {
    const env = data && data.error;
    if (env && env.code) throw new APIError(resp.status, env.code, env.message || '', method, path);
    const msg = (data && data.message) || text.trim().slice(0, 300) || resp.statusText;
    throw new APIError(resp.status, statusCode(resp.status), msg, method, path);
  }
  return { status: resp.status, data, text, headers: resp.headers };
}

// isAbort reports whether err is a call abandoned because the page changed.
export function isAbort(err) {
  return err && err.name === 'AbortError';
}

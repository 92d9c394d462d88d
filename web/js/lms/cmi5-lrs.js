// @ts-check
// The cmi5 connection's line to the LMS (lms/cmi5.js): the one-time auth token from the launch's
// fetch URL (cmi5 §8.2), then xAPI requests to the LRS under the launch's endpoint with that token,
// and retries of what may pass a moment later.

const XAPI_VERSION = '1.0.3';

/** An answer from the LMS other than a success: `status` is its HTTP status. */
export class HttpError extends Error {
  /** @param {string} message @param {number} status */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Whether a failed request may pass when tried again: no answer at all, or the LMS busy (5xx, 429, 408). */
export const transient = (error) =>
  !(error instanceof HttpError) || error.status >= 500 || error.status === 429 || error.status === 408;

/**
 * The LRS as the connection speaks to it: addresses under the launch's endpoint, requests with the
 * session's headers (none until `authorize` has run), JSON reads, retries of what may pass a moment
 * later, and the State API's parameters for the launch's activity, agent and registration.
 * `fetchImpl` and `timers` are the connection's (tests pass their own).
 * @param {{ endpoint: string, fetchUrl: string, actor: object, activityId: string, registration: string }} launch
 * @param {{ fetchImpl: typeof fetch, timers: { setTimeout: Function } }} deps
 */
export function lrsClient(launch, { fetchImpl, timers }) {
  /** @type {Record<string, string> | null} */
  let headers = null;
  /** @param {string} path @param {Record<string, string>} [params] */
  const xapiUrl = (path, params) => {
    const url = new URL(path, launch.endpoint);
    if (params) url.search = new URLSearchParams(params).toString();
    return url;
  };
  /**
   * A request with the session's headers; for a write, the answer's body is read through (a body
   * left unread is cut off, as a failed request, when the page goes). The answer: the Response, or
   * for a write with `reason` the LRS refused, { ok, status, headers, reason }.
   * @param {string | URL} url @param {RequestInit & { reason?: boolean }} [options]
   * @returns {Promise<any>}
   */
  const request = async (url, { reason = false, ...init } = {}) => {
    const response = await fetchImpl(url, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    if (init.method && init.method !== 'GET') {
      // With `reason`, a refusal's body is kept as `reason` (an LRS says there what it objects to).
      const text = await response.text().catch(() => '');
      if (reason && !response.ok) {
        let said = text;
        try {
          const parsed = JSON.parse(text);
          said = typeof parsed?.error === 'string' ? parsed.error : (parsed?.message ?? text);
        } catch {
          // plain text
        }
        return { ok: response.ok, status: response.status, headers: response.headers, reason: String(said) };
      }
    }
    return response;
  };
  /** A request that leaves with the page (keepalive): nothing waits for its answer. @param {URL} url @param {RequestInit} init */
  const sendWithPage = (url, init) =>
    fetchImpl(url, { ...init, headers: { ...headers, ...(init.headers ?? {}) }, keepalive: true }).catch(() => {});
  /** @param {URL} url */
  const getJson = async (url, { missingIsNull = false } = {}) => {
    const response = await request(url);
    if (missingIsNull && response.status === 404) return null;
    if (!response.ok) throw new HttpError(`cmi5: ${url.pathname} answered HTTP ${response.status}`, response.status);
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  };
  /**
   * `what()`, tried again after a growing pause while it fails in a way that may pass (transient).
   * @template T @param {() => Promise<T>} what @returns {Promise<T>}
   */
  const retrying = async (what, attempts = 4) => {
    for (let i = 0; ; i++) {
      try {
        return await what();
      } catch (error) {
        if (!transient(error) || i + 1 >= attempts) throw error;
        await new Promise((resolve) => timers.setTimeout(resolve, 500 * 2 ** i));
      }
    }
  };

  /**
   * The session's auth token (cmi5 §8.2): the one kept in `tokenStore` for this launch (a reload
   * of it), else fetched once from the launch's fetch URL (which gives it only once) and kept.
   * Requests carry it from here on.
   * @param {{ get(key: string): string | null, set(key: string, value: string): void }} tokenStore
   */
  const authorize = async (tokenStore) => {
    const tokenKey = `positional-lesson:cmi5:token:${launch.fetchUrl}`;
    let token = tokenStore.get(tokenKey);
    if (!token) {
      const answer = await retrying(async () => {
        const response = await fetchImpl(launch.fetchUrl, { method: 'POST' });
        const body = await response.json().catch(() => ({}));
        if (!response.ok) throw new HttpError(`cmi5: the fetch URL answered HTTP ${response.status}`, response.status);
        return body;
      });
      token = answer?.['auth-token'];
      if (typeof token !== 'string' || !token)
        throw new Error(
          `cmi5: the fetch URL gave no auth token (${String(answer?.['error-text'] ?? answer?.['error-code'] ?? 'no reason given').slice(0, 200)})`,
        );
      tokenStore.set(tokenKey, token);
    }
    headers = { Authorization: `Basic ${token}`, 'X-Experience-API-Version': XAPI_VERSION };
  };

  /** @param {string} stateId */
  const stateParams = (stateId) => ({
    stateId,
    activityId: launch.activityId,
    agent: JSON.stringify(launch.actor),
    registration: launch.registration,
  });
  return {
    xapiUrl,
    request,
    sendWithPage,
    getJson,
    retrying,
    authorize,
    stateParams,
    /** Whether the session has its token (requests to the LRS may go). */
    authorized: () => headers !== null,
  };
}

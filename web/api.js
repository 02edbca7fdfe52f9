// Talking to the server: JSON requests (the session cookie signs them) and event sockets that
// reconnect by themselves.

/** A refused request, with the server's message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** GETs on their way: two parts of a page asking the same at once share one request. */
const inFlight = new Map();

export function api(path, options = {}) {
  if ((options.method ?? 'GET') !== 'GET') return request(path, options);
  if (!inFlight.has(path)) inFlight.set(path, request(path, options).finally(() => inFlight.delete(path)));
  // Each caller gets its own copy: one may sort or change what it was given.
  return inFlight.get(path).then((data) => structuredClone(data));
}

/** Whether a refused request means the server is away (rather than a refusal to show). */
export const unreachable = (err) => err.status === 0 || err.status >= 500;

/**
 * Calls the API for a part of a page and says a refusal the pages' usual way: its message in
 * `error`, the part's `.error` element. An act (any method but GET) empties `error` first, so
 * that its refusal, or none, replaces the last one's; a load leaves an act's refusal showing.
 * Answers the server's answer (true for an empty one), or false when refused or when the page
 * was left meanwhile (its `error` no longer in the document: the page after it replaced it).
 */
export async function ask(error, path, options = {}) {
  if ((options.method ?? 'GET') !== 'GET') error.textContent = '';
  try {
    const answer = await api(path, options);
    return error.isConnected && (answer ?? true);
  } catch (err) {
    if (error.isConnected) error.textContent = err.message;
    return false;
  }
}

/** `body` is sent as JSON, `text` as plain text (a PGN, say). */
async function request(path, { method = 'GET', body, text: plain } = {}) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  } else if (plain !== undefined) {
    init.headers['Content-Type'] = 'text/plain; charset=utf-8';
    init.body = plain;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: 'http', message: `${response.status} ${response.statusText}` };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

const PING_MS = 15000;
const SILENCE_MS = 40000;

/**
 * A WebSocket that reconnects after a lost connection (with growing delays) and tells its
 * owner through onStatus: `'live'` with `{ again }` true when it is a reconnection (what the
 * page loaded may have missed events since), `'reconnecting'`. `url()` is asked again before
 * each connection, so that it can carry the last version seen.
 */
export class LiveSocket {
  constructor(url, { onMessage, onStatus = () => {} }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closed = false;
    this.opened = 0;
    this.connect();
    // A connection can die without a close (a sleeping laptop, a dropped route): ping, and
    // start over when nothing has been heard for a while.
    this.pinger = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.heard > SILENCE_MS) this.reconnect();
      else this.send({ type: 'ping' });
    }, PING_MS);
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}${this.url()}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.heard = Date.now();
      this.opened += 1;
      this.onStatus('live', { again: this.opened > 1 });
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.onStatus('reconnecting');
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    // A close may be on its way while the state still reads open: the message is lost either way
    // (the reconnect resyncs), and some socket implementations throw instead of dropping it.
    try {
      this.ws.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  /** Drops the connection now and reconnects (as after a network loss). */
  reconnect() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}

/** Escapes text for HTML. */
export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** Builds an element from an HTML string. */
export function h(html) {
  const template = document.createElement('template');
  template.innerHTML = html.trim();
  return template.content.firstElementChild;
}

export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  const rest = String(s % 60).padStart(2, '0');
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** A moment as a `<time>`: the date and time where the reader is, exact for machines. */
export function timeTag(ms) {
  const at = new Date(ms);
  return `<time datetime="${at.toISOString()}">${esc(at.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }))}</time>`;
}

export function timeAgo(ms) {
  const s = Math.round((Date.now() - ms) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

// Parlour's live-game connection: one WebSocket per open game, versioned events, reconnection.
// The protocol is described in docs/protocol.md. Game pages create a LiveGame and give it callbacks:
//   onState(view, message)   a full view (first connection, or a resync after a gap)
//   onEvent(message)          one event, in order: {v, name, data, view}
//   onError(message)          a refused action: {code, message, ref}
//   onStatus(status)          "connecting" | "open" | "closed" | "refused"
//   onEnded(message)          the game was ended elsewhere (a newer game dealt): no reconnection
//   onUnavailable(message)    a friends' table cannot be reached now: the page tries again later
"use strict";

export class LiveGame {
  constructor(gameId, callbacks, options = {}) {
    this.gameId = gameId;
    this.callbacks = callbacks;
    this.lang = options.lang || document.documentElement.lang || "en";
    this.version = null;
    this.nextRef = 1;
    this.pending = new Map();
    this.retry = 0;
    this.closedByUs = false;
    this.socket = null;
    // A friends' table has its own socket path and says hello with the page's seat token.
    this.path = options.path || `/ws/${encodeURIComponent(gameId)}`;
    this.helloExtra = options.hello || (() => ({}));
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}?lang=${this.lang}`;
  }

  // Say hello again (after the page's seat token changed, or was refused): a fresh state follows.
  rejoin() {
    this.version = null;
    this.send({ type: "hello", v: null, ...this.helloExtra() });
  }

  connect() {
    this.status("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      // The backoff starts again only once the server has sent a state: a server that accepts the
      // socket and closes it at once (a table unavailable in an outage) is not asked again and again.
      this.status("open");
      this.send({ type: "hello", v: this.version, ...this.helloExtra() });
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const reject of this.pending.values()) reject.reject(new Error("disconnected"));
      this.pending.clear();
      if (this.closedByUs || this.refused) {
        this.status(this.refused ? "refused" : "closed");
        return;
      }
      this.status("closed");
      const backoff = Math.min(8000, 250 * 2 ** this.retry++);
      const asked = (this.retryAfter ?? 0) * 1000;
      this.retryAfter = null;
      // A little randomness, so that the pages of a server that went away do not all come back at once.
      const delay = Math.max(backoff, asked) * (0.8 + 0.4 * Math.random());
      setTimeout(() => this.connect(), delay);
    });
  }

  receive(message) {
    switch (message.type) {
      case "state":
        this.retry = 0;
        this.version = message.v;
        this.callbacks.onState?.(message.view, message);
        break;
      case "event":
        if (this.version !== null && message.v !== this.version + 1) {
          // A gap means lost messages: ask for what we missed (or a full state).
          this.send({ type: "hello", v: this.version, ...this.helloExtra() });
          return;
        }
        this.version = message.v;
        if (message.name !== null) this.callbacks.onEvent?.(message);
        break;
      case "ack":
      case "hint":
      case "legal":
      case "pong":
        this.settle(message.ref, true, message);
        break;
      case "error":
        this.settle(message.ref, false, message);
        this.callbacks.onError?.(message);
        break;
      case "refused":
        this.refused = true;
        this.callbacks.onRefused?.(message);
        break;
      case "unavailable":
        this.retryAfter = message.retry_after;
        this.callbacks.onUnavailable?.(message);
        break;
      case "ended":
        this.refused = true; // the socket closes and is not opened again
        this.callbacks.onEnded?.(message);
        break;
      default:
        break;
    }
  }

  settle(ref, ok, message) {
    const waiting = this.pending.get(ref);
    if (!waiting) return;
    this.pending.delete(ref);
    // A refusal resolves too (callers read message.type): only a lost connection rejects.
    waiting.resolve(message);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // Send an action; resolves with the ack or the error message (never rejects on a refusal).
  act(action) {
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      if (!this.send({ type: "action", action, ref })) {
        this.pending.delete(ref);
        reject(new Error("not connected"));
      }
    });
  }

  // Send a request that is not a move ({type: "hint"}); resolves with the reply or the error message.
  ask(type, fields = {}) {
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      if (!this.send({ ...fields, type, ref })) {
        this.pending.delete(ref);
        reject(new Error("not connected"));
      }
    });
  }

  close() {
    this.closedByUs = true;
    if (this.socket) this.socket.close();
  }

  status(value) {
    this.callbacks.onStatus?.(value);
  }
}

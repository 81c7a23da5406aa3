// The JSON API's client: every call returns the parsed answer or throws an ApiError
// carrying the server's message in the rules' words. The event stream is read with
// fetch() and a ReadableStream, because EventSource cannot send the secret header.

export class ApiError extends Error {
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

async function request(method, url, { body, secret, raw = false } = {}) {
  const headers = {};
  if (secret) headers["X-Game-Secret"] = secret;
  let payload;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload, cache: "no-store" });
  } catch (error) {
    throw new ApiError(0, "the server cannot be reached: is `abgames web` running?");
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const data = await response.json();
      if (data && typeof data.error === "string") message = data.error;
    } catch (error) {
      // not JSON: keep the status line
    }
    throw new ApiError(response.status, message, response.headers.get("Retry-After"));
  }
  return raw ? response : response.json();
}

export function meta() {
  return request("GET", "/api/meta");
}

/** A new game: ``settings`` = {game, mode, first, level, options}. Answers {id, secret, state}. */
export function createGame(settings) {
  return request("POST", "/api/games", { body: settings });
}

/** A game from a save file's text (sent as it is: the server judges it). */
export function importGame(text) {
  return request("POST", "/api/games/import", { body: text });
}

/** Take the free seat of a friend's game with its invitation: answers {id, secret, seat, state}. */
export function joinGame(id, invite) {
  return request("POST", `/api/games/${encodeURIComponent(id)}/join`, { body: { invite } });
}

/** The calls on one game, all signed with its secret. */
export class GameClient {
  constructor(id, secret) {
    this.id = id;
    this.secret = secret;
    this.base = `/api/games/${encodeURIComponent(id)}`;
  }

  call(method, path, body) {
    return request(method, this.base + path, { body, secret: this.secret });
  }

  get readOnly() { return false; }
  state() { return this.call("GET", ""); }
  move(move, version) { return this.call("POST", "/moves", { move, version }); }
  resign() { return this.call("POST", "/resign", {}); }
  offer(kind) { return this.call("POST", "/offer", { kind }); }
  answer(accept) { return this.call("POST", "/answer", { accept }); }
  review() { return this.call("POST", "/review", {}); }
  undo() { return this.call("POST", "/undo", {}); }
  hint() { return this.call("POST", "/hint", {}); }
  moveNow() { return this.call("POST", "/move-now", {}); }
  restart() { return this.call("POST", "/new", {}); }
  control(action, delayMs) {
    const body = {};
    if (action) body.action = action;
    if (delayMs !== undefined && delayMs !== null) body.delay_ms = delayMs;
    return this.call("POST", "/control", body);
  }

  /** The save file: {name, blob}. */
  async record() {
    const response = await request("GET", this.base + "/record", { secret: this.secret, raw: true });
    const disposition = response.headers.get("Content-Disposition") || "";
    const match = /filename="?([^";]+)"?/.exec(disposition);
    return { name: match ? match[1] : "abgames-game.json", blob: await response.blob() };
  }

  /**
   * Follow the game's events until ``signal`` aborts: ``onEvent(kind, data)`` for each.
   * Resolves when the stream ends (the server went away); rejects with an ApiError.
   */
  events(onEvent, signal) {
    return followEvents(this.base + "/events", { "X-Game-Secret": this.secret }, onEvent, signal);
  }
}

/** A game seen by a watcher: its public state and events, no secret, no actions. */
export class WatchClient {
  constructor(id) {
    this.id = id;
    this.secret = null;
    this.base = `/api/games/${encodeURIComponent(id)}`;
  }

  get readOnly() { return true; }
  state() { return request("GET", this.base + "/watch"); }
  events(onEvent, signal) { return followEvents(this.base + "/watch/events", {}, onEvent, signal); }
}

/**
 * Follow a game's event stream at ``url`` until ``signal`` aborts: ``onEvent(kind, data)``
 * for each event. Resolves when the stream ends (the server went away); rejects with an
 * ApiError.
 */
async function followEvents(url, headers, onEvent, signal) {
  let response;
  try {
    response = await fetch(url, {
      headers: { ...headers, Accept: "text/event-stream" },
      signal,
      cache: "no-store",
    });
  } catch (error) {
    if (signal.aborted) return;
    throw new ApiError(0, "the server cannot be reached");
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (await response.json()).error || message;
    } catch (error) {
      // keep the status line
    }
    throw new ApiError(response.status, message);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseEvent(block);
        if (event) onEvent(event.kind, event.data);
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    throw new ApiError(0, "the connection to the server was lost");
  }
}

/** One server-sent event block -> {kind, data}; null for comments (pings). */
export function parseEvent(block) {
  let kind = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") kind = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  try {
    return { kind, data: JSON.parse(data.join("\n")) };
  } catch (error) {
    return null;
  }
}

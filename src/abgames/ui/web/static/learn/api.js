// The /learn page's calls: the /api/learn/* routes, and the game in progress in this
// browser (read-only). Every call returns the parsed answer or throws an Error whose
// message is the server's, in the rules' words.

async function request(method, url, body, headers = {}) {
  const init = { method, headers: { ...headers }, cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error("the server cannot be reached: is `abgames web` running?");
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const data = await response.json();
      if (data && typeof data.error === "string") message = data.error;
    } catch (error) {
      // not JSON: keep the status line
    }
    throw new Error(message);
  }
  return response.json();
}

export const learnMeta = () => request("GET", "/api/learn/meta");

/** {game, options, moves} -> the board, the moves and the legal moves with their cells. */
export const position = (spec) => request("POST", "/api/learn/position", spec);

/** {game, options, moves, method, depth, max_nodes} -> {position, trace}. */
export const trace = (spec) => request("POST", "/api/learn/trace", spec);

/** {game, options, moves, depth} -> the pruning experiment's rows. */
export const experiment = (spec) => request("POST", "/api/learn/experiment", spec);

// The game page keeps {id: secret} under this key and the current game's id under the
// other (see static/storage.js and WEB_API.md).
const SECRETS_KEY = "abgames:secrets";
const CURRENT_KEY = "abgames:current";

/** The game in progress in this browser, as {id, secret}, or null. */
export function currentGame() {
  try {
    const id = localStorage.getItem(CURRENT_KEY);
    const secrets = JSON.parse(localStorage.getItem(SECRETS_KEY) || "{}");
    const secret = id && secrets && typeof secrets[id] === "string" ? secrets[id] : null;
    return id && secret ? { id, secret } : null;
  } catch (error) {
    return null;
  }
}

/** The State of a game (GET /api/games/{id}, signed with its secret). */
export const gameState = ({ id, secret }) =>
  request("GET", `/api/games/${encodeURIComponent(id)}`, undefined, { "X-Game-Secret": secret });

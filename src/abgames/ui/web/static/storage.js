// What the browser remembers: the secret of each game it created, and the current game.
// The URL fragment (#g=<id>) names the game a tab shows, so a reload or a copied
// address in a second tab of the same browser resumes it.

const SECRETS_KEY = "abgames:secrets";
const CURRENT_KEY = "abgames:current";
const PREFERENCES_KEY = "abgames:preferences";
const MAX_REMEMBERED = 50;

function secrets() {
  try {
    const data = JSON.parse(localStorage.getItem(SECRETS_KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch (error) {
    return {};
  }
}

/** Remember ``id``'s secret and make it the current game. */
export function remember(id, secret) {
  const known = secrets();
  delete known[id];
  known[id] = secret;
  const ids = Object.keys(known);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED))) delete known[old];
  try {
    localStorage.setItem(SECRETS_KEY, JSON.stringify(known));
    localStorage.setItem(CURRENT_KEY, id);
  } catch (error) {
    // private mode or full storage: the game still plays, it just won't resume
  }
}

export function forget(id) {
  const known = secrets();
  delete known[id];
  try {
    localStorage.setItem(SECRETS_KEY, JSON.stringify(known));
    if (localStorage.getItem(CURRENT_KEY) === id) localStorage.removeItem(CURRENT_KEY);
  } catch (error) {
    // nothing to do
  }
}

export function secretOf(id) {
  const secret = secrets()[id];
  return typeof secret === "string" ? secret : null;
}

/** The game id in the URL fragment (#g=<id>), or null. */
export function fragmentId() {
  const match = /(?:^#|&)g=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  return match ? match[1] : null;
}

export function setFragment(id) {
  const hash = `#g=${id}`;
  if (window.location.hash !== hash) history.replaceState(null, "", hash);
}

/** The game to show on load: the fragment's if this browser knows it, else the last one. */
export function gameToResume() {
  const wanted = fragmentId();
  if (wanted) return { id: wanted, secret: secretOf(wanted), fromFragment: true };
  let current = null;
  try {
    current = localStorage.getItem(CURRENT_KEY);
  } catch (error) {
    current = null;
  }
  if (current && secretOf(current)) return { id: current, secret: secretOf(current), fromFragment: false };
  return null;
}

/** The view switches the person chose (analysis, move numbers, forbidden points). */
export function preferences() {
  try {
    const data = JSON.parse(localStorage.getItem(PREFERENCES_KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch (error) {
    return {};
  }
}

export function setPreference(name, value) {
  try {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ ...preferences(), [name]: value }));
  } catch (error) {
    // not remembered: the switch still works on this page
  }
}

// What the browser remembers: the secret of each game it created or joined, and the
// current game. The URL fragment names what a tab shows: #g=<id> a game of this browser
// (a reload or a second tab resumes it), #join=<id>.<invitation> a friend's invitation,
// #watch=<id> a game to watch. Fragments never reach the server's logs.

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

/** An invitation (#join=<id>.<token>) or a game to watch (#watch=<id>) in the fragment, or null. */
export function fragmentLink() {
  const join = /(?:^#|&)join=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (join) return { kind: "join", id: join[1], invite: join[2] };
  const watch = /(?:^#|&)watch=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (watch) return { kind: "watch", id: watch[1] };
  return null;
}

export function setFragment(id, kind = "g") {
  const hash = `#${kind}=${id}`;
  if (window.location.hash !== hash) history.replaceState(null, "", hash);
}

/** The full address of a link to this page: an invitation or a watch link. */
export function linkTo(kind, id, invite = null) {
  const url = new URL(window.location.href);
  url.hash = kind === "join" ? `join=${id}.${invite}` : `${kind}=${id}`;
  return url.toString();
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

const INVITES_KEY = "abgames:invites";

/** Remember the invitation of a game this browser created (to show it again after a reload). */
export function rememberInvite(id, invite) {
  try {
    const known = JSON.parse(localStorage.getItem(INVITES_KEY) || "{}");
    const invites = known && typeof known === "object" && !Array.isArray(known) ? known : {};
    invites[id] = invite;
    const ids = Object.keys(invites);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED))) delete invites[old];
    localStorage.setItem(INVITES_KEY, JSON.stringify(invites));
  } catch (error) {
    // not remembered: the link is shown until the page is reloaded
  }
}

export function inviteOf(id) {
  try {
    const invite = JSON.parse(localStorage.getItem(INVITES_KEY) || "{}")[id];
    return typeof invite === "string" ? invite : null;
  } catch (error) {
    return null;
  }
}

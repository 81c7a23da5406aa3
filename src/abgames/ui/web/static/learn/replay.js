// A trace replayed up to a step: which nodes are known, their values and windows, the
// node being searched, the counters. A pure function of (trace, step), so stepping
// back is replaying from the start (traces are capped at a few thousand nodes).

export const INF = "∞";

/** A value from MAX's view as a short label (the server's value_text). */
export function valueText(value) {
  if (value === null || value === undefined) return "";
  const WIN = 1000000;
  const THRESHOLD = WIN - 10000;
  if (Math.abs(value) >= THRESHOLD) return `${value > 0 ? "W" : "L"}${WIN - Math.abs(value)}`;
  return String(value);
}

export function boundText(value, bound) {
  const text = valueText(value);
  if (bound === "lower") return `≥${text}`;
  if (bound === "upper") return `≤${text}`;
  return text;
}

export function windowText(alpha, beta) {
  const low = alpha === null ? `-${INF}` : valueText(alpha);
  const high = beta === null ? `+${INF}` : valueText(beta);
  return `[${low}, ${high}]`;
}

/** The state of the search after ``steps`` events. */
export function replay(trace, steps) {
  const count = trace.nodes.length;
  const view = {
    seen: new Uint8Array(count),
    closed: new Uint8Array(count),
    value: new Array(count).fill(null),
    bound: new Array(count).fill(null),
    alpha: new Array(count).fill(null),
    beta: new Array(count).fill(null),
    stack: [],
    pv: new Set(),
    best: null,
    counters: { nodes: 0, leaves: 0, cutoffs: 0, pruned: 0, tt_hits: 0 },
    last: null,
    done: steps >= trace.events.length,
  };
  const end = Math.min(steps, trace.events.length);
  for (let i = 0; i < end; i += 1) apply(view, trace.events[i]);
  view.last = end > 0 ? trace.events[end - 1] : null;
  view.active = view.stack.length ? view.stack[view.stack.length - 1] : null;
  return view;
}

function close(view, event) {
  view.stack.pop();
  view.closed[event.node] = 1;
  view.value[event.node] = event.value;
  view.bound[event.node] = event.bound;
  if (event.window) {
    const [parent, alpha, beta] = event.window;
    view.alpha[parent] = alpha;
    view.beta[parent] = beta;
  }
}

function apply(view, event) {
  const c = view.counters;
  switch (event.type) {
    case "enter":
      view.seen[event.node] = 1;
      view.alpha[event.node] = event.alpha;
      view.beta[event.node] = event.beta;
      view.stack.push(event.node);
      c.nodes += 1;
      break;
    case "leaf":
      c.leaves += 1;
      close(view, event);
      break;
    case "tt":
      c.tt_hits += 1;
      close(view, event);
      break;
    case "value":
      close(view, event);
      break;
    case "cut":
      for (const id of event.pruned) view.seen[id] = 1;
      c.cutoffs += 1;
      c.pruned += event.pruned.length;
      break;
    case "best":
      view.best = event.node;
      break;
    case "pv":
      for (const id of event.nodes) view.pv.add(id);
      break;
    default:
      break;
  }
}

function nodeName(trace, id) {
  const node = trace.nodes[id];
  if (node.parent === null) return "the root";
  const path = [];
  for (let n = node; n && n.parent !== null; n = trace.nodes[n.parent]) path.unshift(n.text);
  return path.join(" ");
}

function side(trace, node) {
  const names = trace.player_names;
  return `${names[node.player]} (${node.max ? "MAX" : "MIN"})`;
}

/** The last event in words, for the narration box. */
export function narrate(trace, view) {
  const event = view.last;
  if (!event) return "The search has not started: press Forward or Play.";
  if (view.done && trace.truncated) {
    return `The trace stops here: ${trace.truncated_reason}. The nodes still open (orange) have no value yet.`;
  }
  const node = event.node !== undefined ? trace.nodes[event.node] : null;
  switch (event.type) {
    case "enter": {
      const where = nodeName(trace, event.node);
      const window = trace.method === "minimax" ? "" : ` with alpha and beta ${windowText(event.alpha, event.beta)}`;
      return `Enter ${where}: ${side(trace, node)} to move${window}.`;
    }
    case "leaf":
      if (event.end) return `The game is over after ${nodeName(trace, event.node)}: ${valueText(event.value)} for MAX.`;
      return `${nodeName(trace, event.node)} is at the horizon: the evaluation says ${valueText(event.value)} for MAX.`;
    case "tt":
      return `${nodeName(trace, event.node)} was met before: the transposition table answers ${boundText(event.value, event.bound)} without a search.`;
    case "value": {
      const who = node.max ? "MAX takes its best child" : "MIN takes the child worst for MAX";
      return `${who}: ${nodeName(trace, event.node)} is worth ${boundText(event.value, event.bound)}.`;
    }
    case "cut": {
      const names = event.pruned.map((id) => trace.nodes[id].text).join(", ");
      return `Cut-off at ${nodeName(trace, event.node)}: ${event.reason}. Not searched: ${names}.`;
    }
    case "best":
      return `New best move at the root: ${trace.nodes[event.node].text}, worth ${valueText(event.value)}.`;
    case "pv": {
      const line = event.nodes.slice(1).map((id) => trace.nodes[id].text).join(" ");
      return `Done. The principal variation (best play by both sides): ${line}; value ${valueText(trace.value)}.`;
    }
    default:
      return "";
  }
}

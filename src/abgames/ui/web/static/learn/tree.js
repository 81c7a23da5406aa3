// The search tree in SVG: a tidy layout of the whole trace (so nodes keep their place
// while the search steps), drawn node by node as the replay reveals them. Zoom with the
// wheel or the buttons, pan by dragging, click a node to fold or unfold its subtree.

import { boundText, windowText } from "./replay.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const DX = 38; // horizontal room of a leaf
const DY = 96; // vertical room of a ply
const R = 14; // half-size of a node's triangle
const MARGIN = 40;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

const MAX_SHAPE = `M0,${-R} L${R * 1.1},${R * 0.8} L${-R * 1.1},${R * 0.8} Z`;
const MIN_SHAPE = `M0,${R} L${R * 1.1},${-R * 0.8} L${-R * 1.1},${-R * 0.8} Z`;

export class TreeView {
  /** ``container``: an element to draw in; ``onHover(node | null)`` when the pointer moves. */
  constructor(container, { onHover }) {
    this.container = container;
    this.onHover = onHover;
    this.svg = el("svg", { class: "tree", role: "img" }, container);
    this.layer = el("g", {}, this.svg);
    this.trace = null;
    this.collapsed = new Set();
    this.follow = true;
    // Whether the person zoomed or panned since the search: then the view is theirs,
    // and the tree no longer fits itself in view when the search ends.
    this.userMoved = false;
    this._fittedAtEnd = false;
    this.box = { x: 0, y: 0, scale: 1 };
    new ResizeObserver(() => this._apply()).observe(this.svg);
    this._signature = [];
    this._installPanZoom();
  }

  setTrace(trace) {
    this.trace = trace;
    this.collapsed = new Set();
    this.view = null;
    this.userMoved = false;
    this._fittedAtEnd = false;
    this._build();
  }

  /** Life size, the root at the top centre (then ``follow`` keeps the search in view). */
  readable() {
    if (!this.trace) return;
    const { w } = this._size();
    const root = this.pos[this.trace.roots[0]] || { x: 0 };
    this.box = { x: root.x * DX - w / 2, y: -MARGIN - 20, scale: 1 };
    this._apply();
  }

  _size() {
    const rect = this.svg.getBoundingClientRect();
    return { w: rect.width > 0 ? rect.width : 600, h: rect.height > 0 ? rect.height : 500 };
  }

  clear() {
    this.trace = null;
    this.layer.replaceChildren();
  }

  // --- layout: the nodes known so far (the tree grows as the search goes) ----------
  _layout(view) {
    const { nodes, roots } = this.trace;
    const shown = (id) => !view || view.seen[id] === 1;
    const pos = new Array(nodes.length).fill(null);
    let next = 0;
    const place = (id) => {
      const node = nodes[id];
      const kids = this.collapsed.has(id) ? [] : node.children.filter(shown);
      if (kids.length === 0) {
        pos[id] = { x: next, y: node.ply };
        next += 1;
        return;
      }
      for (const kid of kids) place(kid);
      pos[id] = { x: (pos[kids[0]].x + pos[kids[kids.length - 1]].x) / 2, y: node.ply };
    };
    for (const root of roots) {
      if (!shown(root)) continue;
      place(root);
      next += 0.6;
    }
    this.width = Math.max(1, next) * DX;
    this.depthPlies = Math.max(...nodes.map((n) => n.ply)) + 1;
    return pos;
  }

  _build() {
    this.layer.replaceChildren();
    this.edgeLayer = el("g", { class: "edges" }, this.layer);
    this.nodeLayer = el("g", { class: "nodes" }, this.layer);
    this.elements = [];
    this._signature = [];
    this._placed = [];
    const { nodes, roots } = this.trace;
    this.iterationLabels = roots.length > 1
      ? roots.map((root, index) => {
        const label = el("text", { class: "iteration", y: -R - 22, "text-anchor": "middle" }, this.layer);
        label.textContent = `iteration: depth ${index + 1}`;
        return label;
      })
      : [];
    for (const node of nodes) {
      let edge = null;
      let label = null;
      if (node.parent !== null) edge = el("line", { class: "edge hidden" }, this.edgeLayer);
      label = el("text", { class: "move hidden", "text-anchor": "start" }, this.edgeLayer);
      label.textContent = node.text;
      const group = el("g", { class: `node ${node.max ? "max" : "min"} hidden`, "data-id": node.id }, this.nodeLayer);
      el("path", { class: "shape", d: node.max ? MAX_SHAPE : MIN_SHAPE }, group);
      const value = el("text", { class: "value", y: node.max ? 7 : 1, "text-anchor": "middle" }, group);
      const window = el("text", { class: "window", y: R + 14, "text-anchor": "middle" }, group);
      const badge = el("text", { class: "badge", x: -R - 3, y: -R + 6, "text-anchor": "end" }, group);
      const title = el("title", {}, group);
      group.addEventListener("pointerenter", () => this.onHover(node));
      group.addEventListener("pointerleave", () => this.onHover(null));
      group.addEventListener("click", (event) => {
        if (this._dragged) return;
        event.stopPropagation();
        this.toggle(node.id);
      });
      this.elements.push({ group, edge, label, value, window, badge, title });
    }
    this.pos = this._layout(this.view);
    if (this.view) this.render(this.view);
  }

  _place(pos) {
    const { nodes } = this.trace;
    for (const node of nodes) {
      const p = pos[node.id];
      if (!p) continue;
      const key = `${p.x},${p.y}`;
      if (this._placed[node.id] === key) continue;
      this._placed[node.id] = key;
      const parts = this.elements[node.id];
      const x = p.x * DX;
      const y = p.y * DY;
      parts.group.setAttribute("transform", `translate(${x},${y})`);
      if (parts.label) {
        parts.label.setAttribute("x", x + R * 0.55);
        parts.label.setAttribute("y", y - R - 3);
      }
    }
    for (const node of nodes) {
      const parts = this.elements[node.id];
      const p = pos[node.id];
      if (!parts.edge || !p) continue;
      const q = pos[node.parent];
      if (!q) continue;
      parts.edge.setAttribute("x1", q.x * DX);
      parts.edge.setAttribute("y1", q.y * DY + R * 0.8);
      parts.edge.setAttribute("x2", p.x * DX);
      parts.edge.setAttribute("y2", p.y * DY - R);
    }
    this.trace.roots.forEach((root, index) => {
      const label = this.iterationLabels[index];
      if (!label) return;
      const p = pos[root];
      label.setAttribute("visibility", p ? "visible" : "hidden");
      if (p) label.setAttribute("x", p.x * DX);
    });
  }

  toggle(id) {
    const node = this.trace.nodes[id];
    if (!node.children.length) return;
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this._build();
  }

  // --- drawing a step ------------------------------------------------------------
  render(view) {
    this.view = view;
    if (!this.trace) return;
    const { nodes } = this.trace;
    this.pos = this._layout(view);
    this._place(this.pos);
    const onPath = new Set(view.stack);
    const minimax = this.trace.method === "minimax";
    for (const node of nodes) {
      const parts = this.elements[node.id];
      const id = node.id;
      const seen = view.seen[id] === 1 && this.pos[id] !== null;
      const pruned = node.kind === "pruned";
      const state = !seen ? "hidden" : pruned ? "pruned" : id === view.active ? "active" : onPath.has(id) ? "open" : view.closed[id] ? "done" : "open";
      const pv = view.pv.has(id);
      const value = view.value[id];
      const shownWindow = !minimax && !pruned && (state === "active" || state === "open");
      const folded = this.collapsed.has(id);
      const signature = `${state}|${pv}|${value}|${view.bound[id]}|${shownWindow ? `${view.alpha[id]},${view.beta[id]}` : ""}|${folded}|${view.best === id}`;
      if (this._signature[id] === signature) continue;
      this._signature[id] = signature;
      const classes = ["node", node.max ? "max" : "min", state];
      if (pv) classes.push("pv");
      if (node.kind === "end" && value !== null) classes.push("end");
      if (folded) classes.push("folded");
      if (view.best === id) classes.push("best");
      parts.group.setAttribute("class", classes.join(" "));
      parts.value.textContent = value === null ? (pruned ? "✂" : "") : boundText(value, view.bound[id]);
      parts.window.textContent = shownWindow ? windowText(view.alpha[id], view.beta[id]) : "";
      parts.badge.textContent = folded ? `+${this._count(id)}` : node.kind === "tt" && value !== null ? "T" : "";
      parts.title.textContent = this._describe(node, view);
      const edgeClass = ["edge", state];
      if (pv && node.parent !== null && view.pv.has(node.parent)) edgeClass.push("pv");
      if (parts.edge) parts.edge.setAttribute("class", edgeClass.join(" "));
      if (parts.label) parts.label.setAttribute("class", `move ${state}`);
    }
    if (view.done && !this._fittedAtEnd && !this.userMoved) {
      // The search is over: show all of it, unless the person chose a view of their own.
      this._fittedAtEnd = true;
      if (this._overflows()) this.fit({ enlarge: false });
    } else if (this.follow && view.active !== null) {
      this._keepVisible(view.active);
    }
  }

  _count(id) {
    let total = 0;
    const stack = [...this.trace.nodes[id].children];
    while (stack.length) {
      const next = stack.pop();
      total += 1;
      stack.push(...this.trace.nodes[next].children);
    }
    return total;
  }

  _describe(node, view) {
    const names = this.trace.player_names;
    const head = `${node.parent === null ? "root" : node.text}: ${names[node.player]} (${node.max ? "MAX" : "MIN"}) to move`;
    if (node.kind === "pruned") return `${head}\nCut off, never searched: ${node.reason}.`;
    const lines = [head];
    if (this.trace.method !== "minimax" && view.seen[node.id]) lines.push(`alpha, beta: ${windowText(view.alpha[node.id], view.beta[node.id])}`);
    if (view.value[node.id] !== null) lines.push(`value for MAX: ${boundText(view.value[node.id], view.bound[node.id])}`);
    if (node.reason) lines.push(`Cut-off here: ${node.reason}.`);
    return lines.join("\n");
  }

  // --- zoom and pan: the view is a top-left corner and a scale (user units per pixel)
  _apply() {
    const { w, h } = this._size();
    const { x, y, scale } = this.box;
    this.svg.setAttribute("viewBox", `${x} ${y} ${w * scale} ${h * scale}`);
  }

  /** The whole tree in view (``enlarge``: larger than life size where it is small). */
  fit({ enlarge = true } = {}) {
    if (!this.trace) return;
    const { w, h } = this._size();
    const treeW = this.width + 2 * MARGIN;
    const treeH = (this.depthPlies - 1) * DY + 2 * MARGIN + 40;
    const needed = Math.max(treeW / w, treeH / h);
    const scale = enlarge ? needed : Math.max(1, needed);
    this.box = { x: -MARGIN - DX / 2 - (w * scale - treeW) / 2, y: -MARGIN - 20, scale };
    this._apply();
  }

  /** Whether the tree laid out so far reaches beyond the view. */
  _overflows() {
    const { w, h } = this._size();
    const b = this.box;
    const right = this.width - DX / 2 + MARGIN;
    const bottom = (this.depthPlies - 1) * DY + MARGIN + 20;
    const [left, top] = [-MARGIN - DX / 2, -MARGIN - 20];
    return b.x > left + 1 || b.y > top + 1 || right > b.x + w * b.scale || bottom > b.y + h * b.scale;
  }

  zoom(factor, cx = null, cy = null) {
    const { w, h } = this._size();
    const b = this.box;
    const px = cx ?? b.x + (w * b.scale) / 2;
    const py = cy ?? b.y + (h * b.scale) / 2;
    b.x = px - (px - b.x) * factor;
    b.y = py - (py - b.y) * factor;
    b.scale *= factor;
    this._apply();
  }

  /** Pan so that node ``id`` is on screen, when it is not. */
  _keepVisible(id) {
    const p = this.pos[id];
    if (!p) return;
    const x = p.x * DX;
    const y = p.y * DY;
    const b = this.box;
    const size = this._size();
    const bw = size.w * b.scale;
    const bh = size.h * b.scale;
    const pad = Math.min(bw, bh) * 0.1;
    if (this.width + 2 * MARGIN <= bw) {
      const left = -MARGIN - DX / 2;
      if (b.x !== left) {
        b.x = left;
        this._apply();
      }
    } else if (x < b.x + pad || x > b.x + bw - pad || y < b.y + pad || y > b.y + bh - pad) {
      b.x = x - bw * 0.7;
      if (y < b.y + pad || y > b.y + bh - pad) b.y = Math.max(-MARGIN - 20, y - bh * 0.7);
      this._apply();
    }
  }

  _point(event) {
    const rect = this.svg.getBoundingClientRect();
    const b = this.box;
    return { x: b.x + (event.clientX - rect.left) * b.scale, y: b.y + (event.clientY - rect.top) * b.scale, scale: b.scale };
  }

  _installPanZoom() {
    this.svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const p = this._point(event);
      this.userMoved = true;
      this.zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
    }, { passive: false });
    let start = null;
    this.svg.addEventListener("pointerdown", (event) => {
      start = { x: event.clientX, y: event.clientY, box: { ...this.box }, scale: this._point(event).scale };
      this._dragged = false;
    });
    this.svg.addEventListener("pointermove", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!this._dragged && Math.hypot(dx, dy) < 4) return;
      if (!this._dragged) this.svg.setPointerCapture(event.pointerId);
      this._dragged = true;
      this.box.x = start.box.x - dx * start.scale;
      this.box.y = start.box.y - dy * start.scale;
      this.userMoved = true;
      this._apply();
    });
    const stop = () => {
      start = null;
      setTimeout(() => { this._dragged = false; }, 0);
    };
    this.svg.addEventListener("pointerup", stop);
    this.svg.addEventListener("pointercancel", stop);
  }
}

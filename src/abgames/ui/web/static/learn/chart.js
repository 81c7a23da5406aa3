// The pruning experiment as a bar chart: one bar per method, its length the number of
// positions visited on a log scale (so 500,000 and 500 both read).

const SVG_NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/** ``figures``: the /api/learn/experiment answer. */
export function drawChart(container, figures) {
  const rows = figures.rows;
  const labelWidth = 330;
  const barWidth = 560;
  const rowHeight = 34;
  const top = 30;
  const width = labelWidth + barWidth + 190;
  const height = top + rows.length * rowHeight + 12;
  const maxNodes = Math.max(...rows.map((row) => row.nodes), 10);
  const decades = Math.ceil(Math.log10(maxNodes));
  const scale = (n) => (Math.log10(Math.max(1, n)) / decades) * barWidth;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart-svg", role: "img" });
  el("title", {}, svg).textContent = "Positions visited by each method (log scale)";
  for (let d = 0; d <= decades; d += 1) {
    const x = labelWidth + (d / decades) * barWidth;
    el("line", { x1: x, y1: top - 6, x2: x, y2: height - 8, class: "tick" }, svg);
    el("text", { x, y: top - 12, "text-anchor": "middle", class: "tick-label" }, svg).textContent = (10 ** d).toLocaleString("en");
  }
  rows.forEach((row, index) => {
    const y = top + index * rowHeight;
    el("text", { x: labelWidth - 10, y: y + rowHeight / 2 + 5, "text-anchor": "end", class: "bar-label" }, svg).textContent = row.label;
    const bar = el("rect", { x: labelWidth, y: y + 6, width: Math.max(2, scale(row.nodes)), height: rowHeight - 12, class: `bar ${row.method}`, "data-method": row.method }, svg);
    el("title", {}, bar).textContent = `${row.label}: ${row.nodes.toLocaleString("en")} positions in ${row.seconds} s`;
    const share = index === 0 ? "" : ` (${(100 * row.share).toFixed(1)} %)`;
    const agrees = row.agrees ? "" : "  DISAGREES";
    el("text", { x: labelWidth + scale(row.nodes) + 8, y: y + rowHeight / 2 + 5, class: "bar-value" }, svg).textContent =
      `${row.nodes.toLocaleString("en")}${share}${agrees}`;
  });
  const caption = document.createElement("p");
  caption.className = "caption";
  const depth = figures.depth;
  const best = rows[0];
  caption.textContent = `Depth ${depth}. Value ${best.value_text} for the side to move, best move ${best.move_text ?? "-"}; ${figures.agree ? "every method agrees" : "a method DISAGREES"}.`;
  container.replaceChildren(svg, caption);
}

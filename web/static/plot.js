"use strict";
// A small SVG line chart with linear or logarithmic axes, tick labels and a
// legend: enough to read a privacy curve off the page.

const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// niceTicks returns about n round values covering [lo, hi] on a linear axis.
function niceTicks(lo, hi, n) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

// logTicks returns powers of ten in [lo, hi], with 2 and 5 between them when
// the range spans fewer than three decades.
function logTicks(lo, hi) {
  const out = [], a = Math.floor(Math.log10(lo)), b = Math.ceil(Math.log10(hi));
  const mult = b - a < 3 ? [1, 2, 5] : [1];
  for (let e = a; e <= b; e++) for (const m of mult) {
    const v = m * Math.pow(10, e);
    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
  }
  return out;
}

function tickLabel(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(0).replace("e+", "e");
  return String(Number(v.toPrecision(4)));
}

// lineChart draws into el: opts = {width, height, x: {label, log}, y: {label,
// log}, series: [{name, points: [[x, y], …], color, dash, marker}], legend:
// "top" (default) or "bottom"}.
function lineChart(el, opts) {
  const W = opts.width || 720, H = opts.height || 360, m = {l: 70, r: 20, t: 16, b: 52};
  // A point is drawn when both coordinates are finite numbers (JSON's null
  // is an infinite ε: no point), and positive on a log axis.
  const ok = (q) => typeof q[0] === "number" && typeof q[1] === "number" && isFinite(q[0]) && isFinite(q[1]) &&
    (!opts.x.log || q[0] > 0) && (!opts.y.log || q[1] > 0);
  const pts = opts.series.flatMap(s => s.points).filter(ok);
  el.replaceChildren();
  const svg = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": opts.title || ""});
  el.appendChild(svg);
  if (pts.length === 0) return svg;
  let [x0, x1] = [Math.min(...pts.map(p => p[0])), Math.max(...pts.map(p => p[0]))];
  let [y0, y1] = [Math.min(...pts.map(p => p[1])), Math.max(...pts.map(p => p[1]))];
  if (opts.x.min !== undefined) x0 = Math.min(x0, opts.x.min);
  if (opts.y.min !== undefined) y0 = Math.min(y0, opts.y.min);
  if (x0 === x1) { x0 = opts.x.log ? x0 / 2 : x0 - 1; x1 = opts.x.log ? x1 * 2 : x1 + 1; }
  if (y0 === y1) { y0 = opts.y.log ? y0 / 2 : y0 - 1; y1 = opts.y.log ? y1 * 2 : y1 + 1; }
  if (opts.y.log) { y0 = Math.pow(10, Math.floor(Math.log10(y0) * 4) / 4); y1 = Math.pow(10, Math.ceil(Math.log10(y1) * 4) / 4); } else { y1 += (y1 - y0) * 0.05; }
  const f = (log, a, b, p, q) => v => log ? p + (Math.log10(v) - Math.log10(a)) / (Math.log10(b) - Math.log10(a)) * (q - p) : p + (v - a) / (b - a) * (q - p);
  const X = f(opts.x.log, x0, x1, m.l, W - m.r), Y = f(opts.y.log, y0, y1, H - m.b, m.t);
  const grid = svgEl("g", {class: "grid"}), axis = svgEl("g", {class: "axis"});
  svg.append(grid, axis);
  const xt = opts.x.log ? logTicks(x0, x1) : niceTicks(x0, x1, 8), yt = opts.y.log ? logTicks(y0, y1) : niceTicks(y0, y1, 6);
  for (const v of xt) {
    grid.appendChild(svgEl("line", {x1: X(v), x2: X(v), y1: m.t, y2: H - m.b}));
    axis.appendChild(svgEl("line", {x1: X(v), x2: X(v), y1: H - m.b, y2: H - m.b + 5}));
    axis.appendChild(svgEl("text", {x: X(v), y: H - m.b + 18, "text-anchor": "middle"}, tickLabel(v)));
  }
  for (const v of yt) {
    grid.appendChild(svgEl("line", {x1: m.l, x2: W - m.r, y1: Y(v), y2: Y(v)}));
    axis.appendChild(svgEl("line", {x1: m.l - 5, x2: m.l, y1: Y(v), y2: Y(v)}));
    axis.appendChild(svgEl("text", {x: m.l - 8, y: Y(v) + 4, "text-anchor": "end"}, tickLabel(v)));
  }
  axis.appendChild(svgEl("path", {d: `M${m.l},${m.t}V${H - m.b}H${W - m.r}`, fill: "none"}));
  axis.appendChild(svgEl("text", {x: (m.l + W - m.r) / 2, y: H - 12, "text-anchor": "middle"}, opts.x.label + (opts.x.log ? " (log scale)" : "")));
  axis.appendChild(svgEl("text", {x: 16, y: (m.t + H - m.b) / 2, "text-anchor": "middle", transform: `rotate(-90 16 ${(m.t + H - m.b) / 2})`}, opts.y.label + (opts.y.log ? " (log scale)" : "")));
  // The legend goes top left, or bottom left where the curves fall from the
  // top left (opts.legend "bottom").
  const shown = opts.series.filter(s => s.points.length > 0).length;
  let ly = opts.legend === "bottom" ? H - m.b - 10 - 17 * (shown - 1) : m.t + 6;
  for (const s of opts.series) {
    const p = s.points.filter(ok);
    if (p.length === 0) continue;
    const d = p.map((q, i) => (i ? "L" : "M") + X(q[0]).toFixed(1) + "," + Y(q[1]).toFixed(1)).join("");
    svg.appendChild(svgEl("path", {d, fill: "none", stroke: s.color, "stroke-width": 2, "stroke-dasharray": s.dash || "", "data-series": s.name}));
    if (s.marker) for (const q of p) svg.appendChild(svgEl("circle", {cx: X(q[0]), cy: Y(q[1]), r: 3, fill: s.color}));
    const lx = m.l + 12;
    svg.appendChild(svgEl("line", {x1: lx, x2: lx + 22, y1: ly, y2: ly, stroke: s.color, "stroke-width": 2, "stroke-dasharray": s.dash || ""}));
    svg.appendChild(svgEl("text", {x: lx + 28, y: ly + 4}, s.name));
    ly += 17;
  }
  return svg;
}

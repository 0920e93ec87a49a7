// The playmat as SVG: zones, obstacles, every piece where last seen (mm), side colours, health, status marks,
// and the last shot's reconstructed path animated along its polyline.
"use strict";
window.SmartmatBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const MARKS = { frozen: "❄", stunned: "✦", teleported: "⇄" };
  let lastAnimatedShot = null;

  function node(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = String(text);
    return n;
  }

  function byCharacter(state) {
    const map = {};
    for (const c of (state && state.characters) || []) map[c.id] = c;
    return map;
  }

  // Mat coordinates have their origin at the lower-left corner with y growing up the mat (content/hardware/
  // mat.yaml); SVG's y grows downwards, so every y is flipped against the mat height.
  let matHeight = 600;
  const fy = (y) => matHeight - y;

  function pathPoints(path) {
    return (path || []).map((p) => Array.isArray(p) ? [p[1], fy(p[2])] : [p.x_mm, fy(p.y_mm)]);
  }

  function defaultMat() {
    try { return JSON.parse(document.body.dataset.mat || "{}"); } catch (err) { return {}; }
  }

  function drawPath(svg, path, cls, animate) {
    const pts = pathPoints(path);
    if (pts.length < 2) return null;
    const line = node("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: cls });
    svg.appendChild(line);
    if (animate && line.getTotalLength) {
      const length = line.getTotalLength();
      line.style.strokeDasharray = String(length);
      line.style.strokeDashoffset = String(length);
      line.getBoundingClientRect();
      line.classList.add("animating");
      line.style.strokeDashoffset = "0";
    }
    return line;
  }

  // options: {animate, candidatePaths: [{path, cls}], highlight: Set of piece ids}
  function draw(svg, board, state, shot, options) {
    options = options || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const mat = (board && board.mat) || defaultMat();
    const width = mat.width_mm || 860, height = mat.height_mm || 610;
    matHeight = height;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.appendChild(node("rect", { x: 0, y: 0, width, height, rx: 12, class: "mat" }));
    for (const zone of mat.zones || []) {
      const corners = (zone.polygon || []).map(([x, y]) => [x, fy(y)]);
      if (!corners.length) continue;
      svg.appendChild(node("polygon", { points: corners.map((p) => p.join(",")).join(" "), class: "zone zone-" + (zone.kind || "area") }));
      if (zone.label) {
        const left = Math.min(...corners.map((p) => p[0])), top = Math.min(...corners.map((p) => p[1]));
        svg.appendChild(node("text", { x: left + 10, y: top + 28, class: "zone-label" }, zone.label));
      }
    }
    for (const o of mat.obstacles || []) {
      svg.appendChild(node("circle", { cx: o.x_mm, cy: fy(o.y_mm), r: o.radius_mm || 20, class: "obstacle" }));
    }
    if (!board) {
      svg.appendChild(node("text", { x: width / 2, y: height / 2, class: "empty" }, "waiting for the mat…"));
      return;
    }
    const chars = byCharacter(state);
    const extra = options.candidatePaths || [];
    for (const c of extra) drawPath(svg, c.path, "path candidate " + (c.cls || ""), false);
    // The referee's choice when there was one, else the most likely reading.
    const top = shot && shot.candidates && shot.candidates[Number.isInteger(shot.chosen) ? shot.chosen : 0];
    if (top && !extra.length) {
      const key = JSON.stringify([shot.id, top.path && top.path.length]);
      drawPath(svg, top.path, "path shot", options.animate && key !== lastAnimatedShot);
      lastAnimatedShot = key;
    }
    const hits = new Set((top && top.direct_hits) || []);
    const highlight = options.highlight || new Set();
    for (const p of board.pieces || []) {
      if (p.on_mat === false) continue;
      const ch = chars[p.character || p.piece] || {};
      const side = p.side || ch.side || "neutral";
      const alive = ch.alive !== false;
      const r = p.radius_mm || 16;
      const g = node("g", { class: `piece side-${side}${alive ? "" : " dead"}${hits.has(p.piece) ? " hit" : ""}${highlight.has(p.piece) ? " highlight" : ""}`,
        "data-piece": p.piece, transform: `translate(${p.x_mm},${fy(p.y_mm)})` });
      g.appendChild(node("title", {}, `${ch.name || p.piece}${ch.health !== undefined ? ` — ${ch.health} health` : ""}`));
      g.appendChild(node("circle", { r, class: "disc" }));
      if (ch.health !== undefined) g.appendChild(node("text", { class: "hp", dy: "0.35em" }, ch.health));
      const marks = (ch.status || []).map((s) => MARKS[s]).filter(Boolean).join("");
      if (marks) g.appendChild(node("text", { class: "status-mark", x: r * 0.7, y: -r * 0.7 }, marks));
      svg.appendChild(g);
    }
  }

  return { draw };
})();

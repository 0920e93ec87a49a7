// The playmat as SVG: zones, obstacles, every piece where last seen (mm) with its initials and health, and the
// last shot's reconstructed path with its start and end, replayed as a moving disc.
//
// Pieces are drawn at least MIN_DISC_PX across on any screen, so on a phone crowded discs would sit on top of
// each other: they are nudged apart just enough to be told apart, each with a thin line back to where the mat
// saw it. Every piece can be tapped for its character's details.
"use strict";
window.SmartmatBoard = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const MARKS = { frozen: "❄", stunned: "✦", teleported: "⇄" };
  // Sizes on screen for 16 px text (a phone's smallest); a TV at three metres sets --mat-text-px (app.css) and
  // everything on the mat grows with it.
  let MIN_DISC_PX = 17;     // drawn radius on screen, at least: room for two letters of TEXT_PX text
  const TAP_PX = 22;        // tap target radius: 44 px across
  let TEXT_PX = 16;         // every word and number on the mat, on screen
  let BADGE_PX = 12;        // radius of a health badge: two digits of TEXT_PX
  function textSize() {
    const asked = parseFloat(getComputedStyle(document.body).getPropertyValue("--mat-text-px"));
    TEXT_PX = asked > 0 ? asked : 16;
    MIN_DISC_PX = 17 * TEXT_PX / 16;
    BADGE_PX = 12 * TEXT_PX / 16;
  }
  let lastAnimatedShot = null;
  let replayTimer = null;
  let lastDraw = null;      // what was drawn last, for a replay or a details card

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
  let matHeight = 600, matWidth = 900;
  const fy = (y) => matHeight - y;

  function pathPoints(path) {
    return (path || []).map((p) => Array.isArray(p) ? [p[1], fy(p[2]), p[0]] : [p.x_mm, fy(p.y_mm), p.t_s || 0]);
  }

  function defaultMat() {
    try { return JSON.parse(document.body.dataset.mat || "{}"); } catch (err) { return {}; }
  }

  // A hero by its own name ("Xoric the Barbarian" → "Xo"); a monster by its card and number ("Orc 2" → "O2",
  // "Giant Rat 3" → "GR3", "Troll" → "Tr"): short enough for a disc, the full name is one tap away.
  // A warrior of a lettered group ("Castle Warrior A 1", "Castle Warrior B 1": Catacombs & Castles 2E) by its
  // letter and number, "A1", "B1", so the three of Boss Mode never read alike (the ring tells the team).
  function initials(name, kind) {
    const words = String(name || "?").split(/\s+/).filter((w) => w && !/^(the|of|and)$/i.test(w));
    const number = words.filter((w) => /^\d+$/.test(w)).join("");
    const letters = words.filter((w) => !/^\d+$/.test(w));
    const group = letters.filter((w) => /^[A-Z]$/.test(w)).join("");
    if (group && kind !== "hero") return group + number;
    if (kind === "hero" || letters.length < 2) return (letters[0] || "?").slice(0, number ? 1 : 2) + number;
    return letters.slice(0, 2).map((w) => w[0].toUpperCase()).join("") + number;
  }

  // A piece no character stands on, named by what it is: a shield, a thrown piece, an obstacle, or a disc with
  // nobody on it (a destroyed monster's, say) by its own name, "dungeon-5" → "Dungeon disc 5", "D5".
  const THINGS = [
    [/shield/, "Shield", "Sh"], [/ranged/, "Thrown piece", "Th"], [/^ice/, "Ice", "Ic"],
    [/gelatinous-cube/, "Gelatinous Cube", "GC"], [/fire-wall/, "Fire Wall", "FW"], [/obstacle/, "Obstacle", "Ob"],
  ];
  function thingName(piece, cls) {
    for (const [pattern, name, short] of THINGS) if (pattern.test(cls || "")) return { name, short, kind: name.toLowerCase() };
    const words = String(piece || "").split("-").filter(Boolean);
    const number = /^\d+$/.test(words[words.length - 1] || "") ? words.pop() : "";
    const title = words.map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
    const short = words.slice(0, 2).map((w) => w[0].toUpperCase()).join("") + number || "?";
    return { name: `${title || "A"} disc${number ? " " + number : ""}`, short, kind: "disc" };
  }

  // Nudge drawn discs apart so none covers another (a few rounds of pairwise pushes; the mat rarely holds more
  // than twenty pieces). Positions are in mat millimetres. Each disc keeps a ring of room around it (item.room,
  // its radius plus its health badge's width) so that its badge, placed beside it, never covers a neighbour.
  function spread(items, gap, width, height) {
    for (let round = 0; round < 60; round++) {
      let moved = false;
      for (const it of items) {  // every disc whole on the mat, its outline too: a corner pushes back
        it.x = Math.min(Math.max(it.x, it.r + gap), width - it.r - gap);
        it.y = Math.min(Math.max(it.y, it.r + gap), height - it.r - gap);
      }
      for (let i = 0; i < items.length; i++) {
        for (let j = i + 1; j < items.length; j++) {
          const a = items[i], b = items[j];
          let dx = b.x - a.x, dy = b.y - a.y;
          let d = Math.hypot(dx, dy);
          const need = a.room + b.room + gap;
          if (d >= need) continue;
          if (d < 0.01) { dx = 1; dy = 0.5; d = Math.hypot(dx, dy); }
          const push = (need - d) / 2;
          a.x -= dx / d * push; a.y -= dy / d * push;
          b.x += dx / d * push; b.y += dy / d * push;
          moved = true;
        }
      }
      if (!moved) break;
    }
  }

  // Where each living character's health badge goes, relative to its disc: just outside it, clear of its
  // initials. The first place that stays on the mat and covers no other disc and no badge already placed is
  // taken: up right, up left, down right, down left, then straight up, down, right, left, each a little
  // further out when all are taken (a crowded corner); when nothing is free, the place covering least.
  const BADGE_ANGLES = [-30, -150, 30, 150, -90, 90, 0, 180].map((a) => a * Math.PI / 180);
  function placeBadges(items, k, width, height) {
    const placed = new Map();
    const br = BADGE_PX / k;
    const overlap = (x, y, cx, cy, r) => Math.max(0, r + br - Math.hypot(x - cx, y - cy));
    for (const it of items) {
      const ch = it.character;
      if (ch.health === undefined || ch.alive === false) continue;
      let best = null;
      for (let ring = 0; ring < 3 && !(best && best.covered === 0); ring++) {
        const d = it.r + 10 / k + ring * br;  // clear of the initials (three letters of 16 px)
        for (const a of BADGE_ANGLES) {
          const dx = Math.cos(a) * d, dy = Math.sin(a) * d, x = it.x + dx, y = it.y + dy;
          if (x - br < 0 || x + br > width || y - br < 0 || y + br > height) continue;
          let covered = 0;
          for (const other of items) if (other !== it) covered += overlap(x, y, other.x, other.y, other.r);
          for (const [owner, b] of placed) covered += overlap(x, y, owner.x + b.x, owner.y + b.y, br);
          if (!best || covered < best.covered) best = { x: dx, y: dy, covered };
          if (covered === 0) break;
        }
      }
      placed.set(it, best || { x: it.r + 10 / k, y: 0, covered: 0 });
    }
    return placed;
  }

  function drawPath(svg, path, cls, animate) {
    const pts = pathPoints(path);
    if (pts.length < 2) return null;
    const line = node("polyline", { points: pts.map((p) => p[0] + "," + p[1]).join(" "), class: cls });
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

  // Where the flicked disc started and where it came to rest, labelled in words (not by colour alone). Each
  // word goes beyond its end of the path (away from the rest of the line) when that place is clear, else to
  // the nearest place around that covers no disc, no health badge and not the other word.
  function drawEnds(svg, path, k, items, badges) {
    const pts = pathPoints(path);
    if (pts.length < 2) return;
    const [sx, sy] = pts[0], [ex, ey] = pts[pts.length - 1];
    const text = TEXT_PX / k;
    const taken = [];  // [x, y, r]: discs, badges and words already placed
    for (const it of items) {
      taken.push([it.x, it.y, it.r]);
      const b = badges.get(it);
      if (b) taken.push([it.x + b.x, it.y + b.y, BADGE_PX / k]);
    }
    const TURNS = [0, 45, -45, 90, -90, 135, -135, 180, 22.5, -22.5, 67.5, -67.5, 112.5, -112.5, 157.5, -157.5];
    const word = (x, y, fromX, fromY, label) => {
      const half = label.length * 0.32 * text + 1 / k;  // half the word's width, bold 16 px, and a pixel
      const tall = 0.6 * text;  // half its height as drawn: ascent and descent, not the font size alone
      const ahead = Math.atan2(y - fromY, x - fromX);
      let best = null;
      // Near first, straight on first; further out and in between only when every nearer place is covered
      // (a crowded corner of the mat).
      for (let ring = 0; ring < 6 && !(best && best.covered === 0); ring++) {
        const d = (18 + ring * 16) / k + half;
        for (const turn of TURNS) {
          const a = ahead + turn * Math.PI / 180;
          const cx = x + Math.cos(a) * d, cy = y + Math.sin(a) * d;
          if (cx - half < 0 || cx + half > matWidth || cy - text < 0 || cy + text / 2 > matHeight) continue;
          let covered = 0;
          for (const [tx, ty, tr] of taken) {
            // the word as a box half × tall, against a circle: distance from the circle to the box
            const gx = Math.max(Math.abs(tx - cx) - half, 0), gy = Math.max(Math.abs(ty - cy) - tall, 0);
            covered += Math.max(0, tr - Math.hypot(gx, gy));
          }
          if (!best || covered < best.covered) best = { cx, cy, covered };
          if (covered === 0) break;
        }
      }
      const spot = best || { cx: x, cy: y + 24 / k };
      taken.push([spot.cx, spot.cy, Math.max(half, tall)]);
      return [spot.cx, spot.cy + text * 0.35];  // the baseline that centres the word there
    };
    const [lsx, lsy] = word(sx, sy, pts[1][0], pts[1][1], "start");
    const [lex, ley] = word(ex, ey, pts[pts.length - 2][0], pts[pts.length - 2][1], "end");
    svg.appendChild(node("text", { x: lsx, y: lsy, class: "path-label", "font-size": text }, "start"));
    svg.appendChild(node("text", { x: lex, y: ley, class: "path-label", "font-size": text }, "end"));
  }

  // The path's start ring and end square, drawn under the discs: the flicked disc rests on the end, and its
  // initials stay readable over the square; the words "start" and "end" go on top (drawEnds).
  function drawEndMarks(svg, path, k) {
    const pts = pathPoints(path);
    if (pts.length < 2) return;
    const [sx, sy] = pts[0], [ex, ey] = pts[pts.length - 1];
    svg.appendChild(node("circle", { cx: sx, cy: sy, r: 7 / k, class: "path-start" }));
    svg.appendChild(node("rect", { x: ex - 6 / k, y: ey - 6 / k, width: 12 / k, height: 12 / k, class: "path-end" }));
  }

  // The reconstructed shot replayed: a ghost of the flicked disc runs along the path at the shot's own pace
  // (the path's times, stretched to at least 1.5 s so the eye can follow it). The board is redrawn whenever the
  // mat is scanned, so the ghost is found again (or put back) on every frame.
  function replay(svg) {
    const d = lastDraw;
    if (!d || !d.path || d.path.length < 2 || !svg) return false;
    const pts = pathPoints(d.path);
    const t0 = pts[0][2], t1 = pts[pts.length - 1][2];
    const span = Math.max(t1 - t0, 0.001);
    const duration = Math.min(Math.max(span * 1000, 1500), 5000);
    if (replayTimer) cancelAnimationFrame(replayTimer);
    const started = performance.now();
    const ghostOf = () => svg.querySelector("circle.ghost") ||
      svg.appendChild(node("circle", { r: d.ghostRadius, class: "ghost", cx: pts[0][0], cy: pts[0][1] }));
    svg.classList.add("replaying");
    function frame(now) {
      const f = Math.min((now - started) / duration, 1);
      const t = t0 + f * span;
      let i = 1;
      while (i < pts.length - 1 && pts[i][2] < t) i++;
      const [ax, ay, at] = pts[i - 1], [bx, by, bt] = pts[i];
      const u = bt > at ? Math.min(Math.max((t - at) / (bt - at), 0), 1) : 1;
      const ghost = ghostOf();
      ghost.setAttribute("cx", ax + (bx - ax) * u);
      ghost.setAttribute("cy", ay + (by - ay) * u);
      if (f < 1) { replayTimer = requestAnimationFrame(frame); return; }
      replayTimer = null;
      setTimeout(() => { svg.classList.remove("replaying"); const g = svg.querySelector("circle.ghost"); if (g) g.remove(); }, 800);
    }
    replayTimer = requestAnimationFrame(frame);
    return true;
  }

  // Catacombs 1E's "incapacitated-this-round" only notes when an incapacitation began (docs/state.md): not shown.
  const STATUS_WORDS = { frozen: "frozen", stunned: "stunned", teleported: "teleported away", devoured: "devoured", reckless: "reckless", incapacitated: "incapacitated: no action", petrified: "turned to stone: no action" };
  // How a side is drawn. Catacombs' sides are heroes and the Overseer; a rule set whose snapshot lists its own
  // `sides` (Catacombs & Castles) has its first side drawn like the heroes and its second like the Overseer.
  function looks(side, state) {
    if (["heroes", "overseer", "neutral"].includes(side)) return side;
    const index = ((state && state.sides) || []).findIndex((s) => s.id === side);
    return index === 0 ? "heroes" : index === 1 ? "overseer" : "neutral";
  }

  // "Hero", "The Overseer's monster", "The Overseer's lord", "Neutral piece": the side in words.
  function sideWords(side, kind, state) {
    const what = (kind || "piece").replace(/_/g, " ");
    if (side === "heroes") return kind === "hero" ? "Hero" : `The heroes' ${what}`;
    if (side === "overseer") return `The Overseer's ${what}`;
    if (side && side !== "neutral") return `${sideName(side, state)}: ${what}`;
    return `Neutral ${what}`;
  }

  // A Catacombs & Castles side as people call it (service/table/wording.py side_name): its player's name when
  // the table knows one (a tournament's entrant), else its team.
  const TEAMS = { castle: "Team Castle", catacomb: "Team Catacomb" };
  function sideName(side, state) {
    const s = ((state && state.sides) || []).find((x) => x.id === side) || { id: side, team: side };
    const team = TEAMS[s.team] || String(s.team || s.id || "a side").replace(/-/g, " ");
    const player = s.player || s.entrant;
    return player ? `${player} (${team})` : team;
  }

  // The legend says what the drawing means in this game: Catacombs' heroes and Overseer, or a Catacombs &
  // Castles game's two sides by name; and what a health badge counts (a Castles hero's or boss's badge is its
  // side's pool of Health Tokens, a warrior's its own health).
  function drawLegend(card, state) {
    const legend = card && card.querySelector(".legend");
    if (!legend) return;
    const sides = (state && state.sides) || [];
    const set = (key, text) => { const n = legend.querySelector(`[data-key=${key}]`); if (n && n.textContent !== text) n.textContent = text; };
    if (sides.length >= 2) {
      set("first", `${sideName(sides[0].id, state)}: solid ring`);
      set("second", `${sideName(sides[1].id, state)}: dashed ring`);
      set("number", "number: the side's Health Tokens (a warrior: its own health)");
    } else {
      set("first", "heroes: solid ring");
      set("second", "Overseer: dashed ring");
      set("number", "number: health");
    }
  }

  // The details card for a tapped piece: name, side in words, health as a number, status, gold.
  function showDetails(svg, pieceId) {
    const d = lastDraw;
    const card = svg.closest(".board-card");
    if (!d || !card) return;
    let box = card.querySelector(".piece-details");
    if (!box) {
      box = document.createElement("div");
      box.className = "piece-details";
      box.setAttribute("role", "dialog");
      svg.insertAdjacentElement("afterend", box);  // right under the mat: the tapped disc stays in sight
    }
    while (box.firstChild) box.removeChild(box.firstChild);
    const item = d.items.find((p) => p.piece === pieceId);
    if (!item) { box.hidden = true; return; }
    const ch = item.character || {};
    const add = (tag, cls, text) => { const n = document.createElement(tag); n.className = cls; n.textContent = text; box.appendChild(n); return n; };
    add("strong", "name", ch.name || item.thing.name);
    if (ch.printed_name) add("div", "printed muted", `printed on its card: ${ch.printed_name}`).lang = "it";
    add("div", "side", ch.name ? sideWords(item.side, ch.kind, d.state) : (item.thing.kind === "disc" ? "No character on it" : sideWords(item.side, item.thing.kind, d.state)));
    if (ch.health !== undefined) {
      add("div", "hp", ch.alive === false ? "Destroyed" : `Health ${ch.health} of ${ch.max_health || ch.health}`);
    }
    const status = (ch.status || []).filter((s) => !String(s).endsWith("-this-round")).map((s) => STATUS_WORDS[s] || s);
    if (status.length) add("div", "status", status.join(", "));
    if (ch.gold) add("div", "gold", `${ch.gold} gold`);
    if (typeof ch.rage === "number") add("div", "rage", `Rage ${ch.rage}`);
    if (d.referee) add("div", "muted disc", `disc ${item.piece}`);
    const close = document.createElement("button");
    close.type = "button"; close.className = "close"; close.textContent = "Close";
    close.addEventListener("click", () => { box.hidden = true; });
    box.appendChild(close);
    box.dataset.piece = pieceId;
    box.hidden = false;
  }

  // options: {animate, candidatePaths: [{path, cls}], highlight: Set of piece ids, referee: bool}
  function draw(svg, board, state, shot, options) {
    options = options || {};
    textSize();
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const mat = (board && board.mat) || defaultMat();
    const width = mat.width_mm || 860, height = mat.height_mm || 610;
    matHeight = height; matWidth = width;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const k = (svg.clientWidth || svg.getBoundingClientRect().width || 390) / width;  // screen px per mm
    svg.appendChild(node("rect", { x: 0, y: 0, width, height, rx: 12, class: "mat" }));
    for (const zone of mat.zones || []) {
      const corners = (zone.polygon || []).map(([x, y]) => [x, fy(y)]);
      if (!corners.length) continue;
      svg.appendChild(node("polygon", { points: corners.map((p) => p.join(",")).join(" "), class: "zone zone-" + (zone.kind || "area") }));
      if (zone.label) {
        const left = Math.min(...corners.map((p) => p[0])), top = Math.min(...corners.map((p) => p[1]));
        svg.appendChild(node("text", { x: left + 10, y: top + 8 + TEXT_PX / k, class: "zone-label", "font-size": TEXT_PX / k }, zone.label));
      }
    }
    for (const o of mat.obstacles || []) {
      svg.appendChild(node("circle", { cx: o.x_mm, cy: fy(o.y_mm), r: o.radius_mm || 20, class: "obstacle" }));
    }
    if (!board) {
      svg.appendChild(node("text", { x: width / 2, y: height / 2, class: "empty", "font-size": Math.max(28, TEXT_PX / k) }, "waiting for the mat…"));
      lastDraw = null;
      return;
    }
    const chars = byCharacter(state);
    const extra = options.candidatePaths || [];
    for (const c of extra) drawPath(svg, c.path, "path candidate " + (c.cls || ""), false);
    // The referee's choice when there was one, else the most likely reading.
    // A shot the referee took back or set aside did not happen as drawn: no path.
    const top = shot && !shot.set_aside && !shot.undone && shot.candidates && shot.candidates[Number.isInteger(shot.chosen) ? shot.chosen : 0];
    const flicked = shot && shot.declaration && shot.declaration.flicked;
    let ghostRadius = 16;
    if (top && !extra.length) {
      const key = JSON.stringify([shot.shot_seq, shot.seq, top.path && top.path.length]);
      const fresh = key !== lastAnimatedShot;
      drawPath(svg, top.path, "path shot reconstructed", options.animate && fresh);
      lastAnimatedShot = key;
    }
    const hits = new Set((top && top.direct_hits) || []);
    const highlight = options.highlight || new Set();
    const items = [];
    for (const p of board.pieces || []) {
      if (p.on_mat === false) continue;
      // A disc whose character was destroyed may still lie on the mat: it carries that character's name.
      const ch = chars[p.character || p.piece] || ((state && state.characters) || []).find((c) => c.piece === p.piece) || {};
      const thing = thingName(p.piece, p.class);
      const short = ch.name ? initials(ch.name, ch.kind) : thing.short;
      // Three letters of bold 16 px ("WG3") need a wider disc than two.
      const r = Math.max(p.radius_mm || 16, (short.length > 2 ? MIN_DISC_PX * 20 / 17 : MIN_DISC_PX) / k);
      if (p.piece === flicked) ghostRadius = p.radius_mm || 16;
      const side = ch.side || p.side || "neutral";
      const room = r + BADGE_PX / k;  // its own badge's place, and a neighbour's badge's
      items.push({ piece: p.piece, character: ch, thing, short, side, look: looks(side, state), r, room, x: p.x_mm, y: fy(p.y_mm), x0: p.x_mm, y0: fy(p.y_mm) });
    }
    spread(items, 2 / k, width, height);
    const text = TEXT_PX / k;
    const badges = placeBadges(items, k, width, height);
    for (const it of items) {
      if (Math.hypot(it.x - it.x0, it.y - it.y0) > 2 / k) {
        // Nudged apart for the eye: a line and a dot show where the disc really is (under every disc, so no
        // line crosses another disc's initials).
        svg.appendChild(node("line", { x1: it.x0, y1: it.y0, x2: it.x, y2: it.y, class: "leader" }));
        svg.appendChild(node("circle", { cx: it.x0, cy: it.y0, r: 2.5 / k, class: "leader-dot" }));
      }
    }
    if (top) drawEndMarks(svg, top.path, k);
    for (const it of items) {
      const ch = it.character;
      const alive = ch.alive !== false;
      const cls = `piece side-${it.look}${alive ? "" : " dead"}${hits.has(it.piece) ? " hit" : ""}${highlight.has(it.piece) ? " highlight" : ""}`;
      const label = `${ch.name || it.thing.name}${ch.health !== undefined ? `, ${ch.health} health` : ""}`;
      const g = node("g", { class: cls, "data-piece": it.piece, transform: `translate(${it.x},${it.y})`,
        tabindex: 0, role: "button", "aria-label": label });
      g.appendChild(node("title", {}, label));
      g.appendChild(node("circle", { r: Math.max(it.r, TAP_PX / k), class: "tap" }));
      g.appendChild(node("circle", { r: it.r, class: "disc" }));
      g.appendChild(node("text", { class: "initials", dy: "0.35em", "font-size": text }, it.short));
      const badge = badges.get(it);
      if (badge) {
        g.appendChild(node("circle", { cx: badge.x, cy: badge.y, r: BADGE_PX / k, class: "hp-badge" }));
        g.appendChild(node("text", { class: "hp", x: badge.x, y: badge.y, dy: "0.35em", "font-size": text }, ch.health));
      }
      if (hits.has(it.piece)) g.appendChild(node("text", { class: "hit-mark", x: -it.r * 0.9, y: -it.r * 0.7, "font-size": text }, "✸"));
      const marks = (ch.status || []).map((s) => MARKS[s]).filter(Boolean).join("");
      if (marks) g.appendChild(node("text", { class: "status-mark", x: it.r * 0.8, y: it.r * 1.1, "font-size": text }, marks));
      g.addEventListener("click", () => showDetails(svg, it.piece));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); showDetails(svg, it.piece); } });
      svg.appendChild(g);
    }
    if (top) drawEnds(svg, top.path, k, items, badges);  // on top of the discs, so "start" and "end" stay readable
    lastDraw = { path: top ? top.path : null, ghostRadius, items, state, referee: Boolean(options.referee) };
    const card = svg.closest(".board-card");
    drawLegend(card, state);
    const box = card && card.querySelector(".piece-details");
    if (box && !box.hidden && box.dataset.piece) showDetails(svg, box.dataset.piece);  // keep it current
    const note = card && card.querySelector(".path-note");
    if (note) note.hidden = !top;
    const again = card && card.querySelector(".replay-shot");
    if (again) again.disabled = !(top && top.path && top.path.length > 1);
    if (top && options.animate && lastAnimatedShot && svg.dataset.replayed !== lastAnimatedShot) {
      svg.dataset.replayed = lastAnimatedShot;
      replay(svg);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const button of document.querySelectorAll(".replay-shot")) {
      button.addEventListener("click", () => replay(button.closest(".board-card").querySelector("svg.board")));
    }
  });

  return { draw, replay, initials };
})();

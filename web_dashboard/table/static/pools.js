// Catacombs & Castles: the sides' Health Pools, Reinforcement Tokens, Armour Tokens and card charges, from the
// snapshot's `sides` and characters (docs/state.md). A game without pools (Catacombs) leaves the card hidden.
"use strict";
(function () {
  const S = window.Smartmat;
  const MODES = { team: "Team Mode", "one-versus-one": "One versus One", boss: "Boss Mode", "boss-versus-boss": "Boss vs Boss" };

  // "larra-team-action" on Larra -> "team action"; a Boss Action card keeps its own name; a first-edition
  // Ability card drops its team ("catacomb-hail-xaugorth" -> "hail xaugorth").
  function cardName(c, id, team) {
    let name = String(id);
    for (const prefix of [String(c.card || "") + "-", team ? team + "-" : ""]) {
      if (prefix && name.startsWith(prefix)) name = name.slice(prefix.length);
    }
    return name.replace(/-/g, " ");
  }

  function tokens(n, max, cls) {
    const bar = S.el("span", { class: "health " + cls, "aria-hidden": "true" });
    for (let i = 0; i < Math.max(max, n); i++) bar.appendChild(S.el("i", { class: i < n ? "full" : "empty" }));
    return bar;
  }

  // One fighter: armour as words and shields (full / half), each card's tokens as a number, never colour alone.
  function fighter(c, team) {
    const li = S.el("li", { class: `person fighter side-${c.side}${c.on_mat === false ? " off-mat" : ""}`, "data-character": c.id });
    li.appendChild(S.el("span", { class: "name" }, c.name || c.id));
    if (c.kind === "warrior") {
      li.appendChild(S.el("strong", { class: "hp", title: c.on_mat ? "1 health, on the playmat" : "off the playmat" }, c.on_mat ? "1" : "–"));
    }
    const notes = [];
    if (c.kind !== "hero") notes.push(c.kind + (c.form ? ` (${c.form} form)` : "") + (c.on_mat === false ? ", off the playmat" : ""));
    for (const a of c.armour || []) notes.push(a === "full" ? "● full armour" : "◐ half armour");
    for (const [card, n] of Object.entries(c.cards || {})) notes.push(`${cardName(c, card, team)}: ${n} token${n === 1 ? "" : "s"}`);
    if (c.trapped) notes.push("trapped");
    if (notes.length) li.appendChild(S.el("span", { class: "tag charges" }, notes.join(" · ")));
    return li;
  }

  const openAway = new Set();

  function side(s, characters, turn) {
    const box = S.el("div", { class: `pool side-${s.id}`, "data-side": s.id });
    const title = S.el("h3", {}, teamName(s));
    if (turn && turn.side === s.id) title.appendChild(S.el("span", { class: "badge good" }, "to act"));
    box.appendChild(title);
    const line = S.el("p", { class: "pool-line" });
    line.appendChild(S.el("strong", { class: "pool-health", title: `${s.health} of ${s.starting_health} Health Tokens` }, `${s.health} / ${s.starting_health}`));
    line.appendChild(S.el("span", { class: "muted" }, " Health Tokens"));
    if (s.reinforcements) line.appendChild(S.el("span", { class: "muted" }, ` · ${s.reinforcements} Reinforcement Token${s.reinforcements === 1 ? "" : "s"}`));
    box.appendChild(line);
    box.appendChild(tokens(s.health, s.starting_health, "pool-bar"));
    const list = S.el("ul", { class: "people" });
    // Warriors off the playmat (a First Edition side has twelve) are one line with their names one tap away,
    // so the fighters on the mat stay in sight on a phone.
    const mine = characters.filter((x) => x.side === s.id);
    const away = mine.filter((c) => c.kind === "warrior" && c.on_mat === false);
    for (const c of (away.length > 2 ? mine.filter((x) => !away.includes(x)) : mine)) list.appendChild(fighter(c, s.team));
    box.appendChild(list);
    if (away.length > 2) {
      const more = S.el("details", { class: "off-mat-warriors" });
      more.open = openAway.has(s.id);  // the list is redrawn on every snapshot: it stays as the reader left it
      more.addEventListener("toggle", () => { if (more.open) openAway.add(s.id); else openAway.delete(s.id); });
      more.appendChild(S.el("summary", {}, `${away.length} warriors off the playmat`));
      const rest = S.el("ul", { class: "people" });
      for (const c of away) rest.appendChild(fighter(c, s.team));
      more.appendChild(rest);
      box.appendChild(more);
    }
    return box;
  }

  function teamName(s) {
    const team = s.team === "castle" ? "Team Castle" : s.team === "catacomb" ? "Team Catacomb" : s.id;
    // A tournament match names each side by its entrant (the hub's offer): the player, then the team.
    const offer = S.table && S.table.match;
    const entrant = offer && (offer.sides || []).find((x) => x.id === s.id);
    // The snapshot names a match's side by its entrant (docs/state.md: sides' player) once the game is set up.
    const player = s.player || (entrant && entrant.name);
    return player ? `${player} (${team})` : team;
  }

  // The shared summary speaks of rooms; a game without rooms names its mode and the team to act instead.
  function summary(state, sides) {
    const set = (id, text) => { const n = document.getElementById(id); if (n) n.textContent = text; };
    const turn = state.turn || {};
    const acting = sides.find((x) => x.id === turn.side);
    set("room-name", MODES[state.mode] || state.mode || "");
    if (acting && !turn.character) set("turn-who", teamName(acting));
    const moment = document.getElementById("moment");
    if (acting && moment && moment.textContent.startsWith("Waiting for ")) moment.textContent = `Waiting for ${teamName(acting)} to declare`;
  }

  function render(t, reason) {
    if (!t.state || reason === "event") return;
    const card = document.getElementById("pools");
    if (!card) return;
    const sides = t.state.sides;
    const pooled = Array.isArray(sides) && sides.length > 0;
    card.hidden = !pooled;
    // The Catacombs lists (party, monsters) say nothing of a game played with pools.
    for (const id of ["heroes", "monsters"]) {
      const list = document.getElementById(id);
      const section = list && list.closest("section");
      if (section) section.hidden = pooled;
    }
    if (!pooled) return;
    summary(t.state, sides);
    document.getElementById("pools-mode").textContent = MODES[t.state.mode] || t.state.mode || "";
    const box = document.getElementById("pool-sides");
    while (box.firstChild) box.removeChild(box.firstChild);
    for (const s of sides) box.appendChild(side(s, t.state.characters || [], t.state.turn));
  }

  // After the shared summary (live.js adds it once the page is loaded), so the mode's words win.
  document.addEventListener("DOMContentLoaded", () => S.onRender(render));
})();

// Spectator page: party, monsters left, gold, and the running feed in words.
"use strict";
(function () {
  const S = window.Smartmat;

  function person(c) {
    const li = S.el("li", { class: `person side-${c.side}${c.alive === false ? " dead" : ""}`, "data-character": c.id });
    li.appendChild(S.el("span", { class: "name" }, c.name || c.id));
    const status = (c.status || []).join(", ");
    if (status) li.appendChild(S.el("span", { class: "tag" }, status));
    const bar = S.el("span", { class: "health" });
    const max = Math.max(c.max_health || c.health || 1, c.health || 0);
    for (let i = 0; i < max; i++) bar.appendChild(S.el("i", { class: i < c.health ? "full" : "empty" }));
    li.appendChild(bar);
    li.appendChild(S.el("strong", { class: "hp" }, c.alive === false ? "✝" : c.health));
    if (c.gold) li.appendChild(S.el("span", { class: "gold" }, `${c.gold}g`));
    return li;
  }

  function fill(list, items) {
    while (list.firstChild) list.removeChild(list.firstChild);
    for (const item of items) list.appendChild(item);
  }

  // "Last shot: Xoric the Barbarian's melee hit Troll, Zombie" — the reading the referee chose, else the best.
  function renderLastShot(shot) {
    const line = document.getElementById("last-shot");
    const candidates = (shot && shot.candidates) || [];
    if (!candidates.length) { line.hidden = true; return; }
    const pick = candidates[Number.isInteger(shot.chosen) ? shot.chosen : 0];
    const d = shot.declaration || {};
    const shooter = d.character || d.flicked;
    const who = shooter ? `${S.characterName(shooter)}'s ${d.shot || "shot"}` : "The last shot";
    const chosen = shot.confirmed_hits && !Number.isInteger(shot.chosen) ? shot.confirmed_hits
      : (pick.hit_characters || pick.direct_hits || []);
    const hits = chosen.map(S.characterName);
    const sureness = shot.undone ? " (undone by the referee)" : shot.set_aside ? " (set aside by the referee)" : shot.resolved ? " (confirmed by the referee)"
      : (shot.auto_apply ? "" : ` (${Math.round((pick.probability || 0) * 100)}% sure, waiting for the referee)`);
    line.textContent = `Last shot: ${who} ${hits.length ? "hit " + hits.join(", ") : "hit nothing"}${sureness}`;
    line.hidden = false;
  }

  S.onRender(function (t, reason) {
    if (t.state && reason !== "event") {
      const chars = t.state.characters || [];
      fill(document.getElementById("heroes"), chars.filter((c) => c.side === "heroes").map(person));
      const monsters = chars.filter((c) => c.side !== "heroes" && c.alive !== false);
      fill(document.getElementById("monsters"), monsters.map(person));
      document.getElementById("monsters-left").textContent = monsters.length;
      document.getElementById("party-gold").textContent = (t.state.gold && t.state.gold.party) || 0;
    }
    renderLastShot(t.shot);
    const feed = document.getElementById("feed");
    const shown = feed.childElementCount;
    if (reason === "hello" || shown > t.events.length) fill(feed, []);
    for (const ev of t.events.slice(feed.childElementCount)) {
      feed.insertBefore(S.el("li", { class: "ev ev-" + ev.type, "data-id": ev.id || "" }, ev.text || ev.type), feed.firstChild);
    }
  });
})();

// Spectator page (and the TV view): party, monsters left, gold, the last shot and the running story, in words.
"use strict";
(function () {
  const S = window.Smartmat, W = window.SmartmatWords;

  // Catacombs 1E, Incapacità: an incapacitated hero takes no action; "incapacitated-this-round" is only the
  // rules' note of when it began (docs/state.md), not something to show. A hero the Gorgon turned to stone
  // takes none either, for the rest of the battle.
  const STATUS_WORDS = { incapacitated: "incapacitated: no action", petrified: "turned to stone: no action" };

  function person(c) {
    const dead = c.alive === false;
    const li = S.el("li", { class: `person side-${c.side}${dead ? " dead" : ""}`, "data-character": c.id });
    const name = S.el("span", { class: "name" }, c.name || c.id);
    // A card printed in Italian (Catacombs 1E): its printed name beside the English one.
    if (c.printed_name) name.appendChild(S.el("span", { class: "printed", lang: "it" }, ` (${c.printed_name})`));
    li.appendChild(name);
    const shown = (c.status || []).filter((s) => !String(s).endsWith("-this-round"));
    const status = shown.map((s) => STATUS_WORDS[s] || s).join(", ");
    if (status) li.appendChild(S.el("span", { class: "tag" }, status));
    const bar = S.el("span", { class: "health", "aria-hidden": "true" });
    const max = Math.max(c.max_health || c.health || 1, c.health || 0);
    for (let i = 0; i < max; i++) bar.appendChild(S.el("i", { class: i < c.health ? "full" : "empty" }));
    li.appendChild(bar);
    // Health is a number (and a word when gone), never only a coloured bar.
    li.appendChild(S.el("strong", { class: "hp", title: dead ? "destroyed" : `${c.health} of ${max} health` }, dead ? "✝" : c.health));
    if (c.gold) li.appendChild(S.el("span", { class: "gold" }, `${c.gold} gold`));
    // Catacombs 1E: the Barbarian's rage track, which his Frenzy spends (only a hero with a track has "rage").
    if (typeof c.rage === "number") li.appendChild(S.el("span", { class: "rage" }, `rage ${c.rage}`));
    return li;
  }

  function fill(list, items) {
    while (list.firstChild) list.removeChild(list.firstChild);
    for (const item of items) list.appendChild(item);
  }

  function characterOfDisc(t, disc) {
    const list = (t.state && t.state.characters) || [];
    return list.find((c) => c.piece === disc || c.id === disc);
  }

  // "Last shot: Xoric the Barbarian's melee — −1 Orc 2, Orc 2 destroyed"; a rush on a monster "Orc 2: no damage
  // from a rush"; a teammate bumped "Elani was pushed — no damage to allies".
  function renderLastShot(t) {
    const shot = t.shot;
    const line = document.getElementById("last-shot");
    const candidates = (shot && shot.candidates) || [];
    if (shot && shot.status === "attributing") {
      const d = shot.declaration || {};
      line.textContent = `Last shot: ${S.characterName(d.character || shot.character)}'s ${(d.shot || shot.shot || "shot").replace(/_/g, " ")} — the mat is reading it`;
      line.hidden = false;
      return;
    }
    if (!candidates.length) { line.hidden = true; return; }
    const pick = W.chosenReading(shot);
    const d = shot.declaration || {};
    const shooterId = d.character || shot.character || d.flicked;
    const shooter = S.characterName(shooterId);
    const who = shooterId ? `${shooter}'s ${(d.shot || shot.shot || "shot").replace(/_/g, " ")}` : "The last shot";
    let what;
    let details = [];
    if (shot.undone) what = "taken back by the referee";
    else if (shot.set_aside) what = "set aside by the referee: flick again";
    else if (!shot.resolved && !shot.auto_apply) what = "the referee is checking it";
    else {
      const phrases = W.shotStory(shot, t.events, S.characterName);
      details = phrases.details || [];
      const side = (characterOfDisc(t, shooterId) || {}).side;
      for (const disc of pick.pushed || []) {
        const c = characterOfDisc(t, disc);
        if (c && c.side === side && c.id !== shooterId) phrases.push(`${c.name} was pushed — no damage to allies`);
      }
      const hits = shot.confirmed_hits || pick.hit_characters || pick.direct_hits || [];
      // Without the rules' events for this shot (a page opened later), say at least whom it hit.
      what = phrases.length ? phrases.join(", ") : (hits.length ? "hit " + hits.map(S.characterName).join(", ") : "no hit");
      if (shot.resolved && !shot.auto_apply) what += " (confirmed by the referee)";
    }
    line.textContent = `Last shot: ${who} — ${what.trim()}`;
    if (details.length) {  // the room's gold and discs, one tap away
      const more = S.el("details", { class: "shot-details" });
      more.appendChild(S.el("summary", {}, `and ${details.length} more (gold, discs)`));
      more.appendChild(S.el("p", {}, details.join(" · ")));
      line.appendChild(more);
    }
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
    renderLastShot(t);
    const feed = document.getElementById("feed");
    const shown = feed.childElementCount;
    if (reason === "hello" || shown > t.events.length) fill(feed, []);
    for (const ev of t.events.slice(feed.childElementCount)) {
      feed.insertBefore(S.el("li", { class: "ev ev-" + ev.type, "data-id": ev.id || "" }, W.plain(ev.said || ev.text) || ev.type), feed.firstChild);
    }
  });
})();

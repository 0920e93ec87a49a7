// The set-up wizard: pick the game, place the pieces (the mat confirms each), the trackers, the health check.
// Reads the table's view (its rule set picks the choices the game offers, service/games/*/wizard.py); sends setup_game and rescan with the session's CSRF token.
"use strict";
(function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  let tableExpansions = null;  // the expansions of the game on the table, from the first view read

  const send = window.smartmatSetup.commandSender(refresh);  // refresh: a hoisted declaration below

  function item(list, ok, text, data) {
    const li = document.createElement("li");
    li.dataset.ok = String(ok);
    for (const [k, v] of Object.entries(data || {})) li.dataset[k] = v;
    li.textContent = text;
    list.append(li);
  }

  function tick(container, name, entry) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox"; box.name = name; box.value = entry.id;
    label.append(box, " " + entry.name);
    container.append(label);
  }

  function show(element, on) { element.classList.toggle("hidden", !on); element.hidden = !on; }

  // A Catacombs & Castles table: the mode, then each team's heroes, or its boss and three warriors. The First
  // Edition adds the board's side (the other team goes first: no choice of who starts) and the Armour Tokens.
  let firstEdition = false;
  function castlesChoices(choices) {
    $("wiz-3e").classList.add("hidden");
    $("wiz-castles").classList.remove("hidden");
    firstEdition = !!choices.board_sides;
    document.querySelectorAll("#wiz-castles .first-edition").forEach((el) => show(el, firstEdition));
    if (firstEdition) {
      document.querySelectorAll("#wiz-castles .second-edition").forEach((el) => el.remove());
      for (const side of choices.board_sides) {
        const option = document.createElement("option"); option.value = side.id; option.textContent = side.name;
        $("wiz-board-side").append(option);
      }
    }
    for (const mode of choices.modes) {
      const option = document.createElement("option"); option.value = mode.id; option.textContent = mode.name;
      $("wiz-mode").append(option);
    }
    $("wiz-mode").value = "team";
    for (const fieldset of document.querySelectorAll(".wiz-side")) {
      const team = fieldset.dataset.team;
      const mine = (list) => list.filter((entry) => entry.team === team);
      mine(choices.heroes).forEach((h) => tick(fieldset.querySelector(".heroes"), `hero-${team}`,
        { id: h.id, name: h.role ? `${h.name} (${h.role})` : h.name }));
      mine(choices.warriors).forEach((w) => tick(fieldset.querySelector(".warriors"), `warrior-${team}`, w));
      for (const boss of mine(choices.bosses)) {
        const option = document.createElement("option"); option.value = boss.id; option.textContent = boss.name;
        fieldset.querySelector(".boss").append(option);
      }
    }
    $("wiz-mode").addEventListener("change", showMode);
    $("wiz-boss-side").addEventListener("change", showMode);
    showMode();
  }

  function bossSides() {
    const mode = $("wiz-mode").value;
    if (mode === "boss-versus-boss") return [true, true];
    if (mode === "boss") return $("wiz-boss-side").value === "0" ? [true, false] : [false, true];
    return [false, false];
  }

  function showMode() {
    const mode = $("wiz-mode").value;
    for (const label of document.querySelectorAll("#wiz-castles [data-modes]")) {
      label.classList.toggle("hidden", !label.dataset.modes.split(" ").includes(mode));
    }
    const boss = bossSides();
    for (const fieldset of document.querySelectorAll(".wiz-side")) {
      const isBoss = boss[Number(fieldset.dataset.index)];
      fieldset.querySelectorAll(".plays-boss").forEach((el) => el.classList.toggle("hidden", !isBoss));
      fieldset.querySelector(".plays-heroes").classList.toggle("hidden", isBoss);
    }
  }

  function castlesGame() {
    const mode = $("wiz-mode").value;
    const boss = bossSides();
    const sides = Array.from(document.querySelectorAll(".wiz-side")).map((fieldset) => {
      const team = fieldset.dataset.team;
      const side = { team };
      if (boss[Number(fieldset.dataset.index)]) {
        side.boss = fieldset.querySelector(".boss").value;
        side.warriors = picked(`warrior-${team}`);
        const reinforcements = fieldset.querySelector(".reinforcements").value;
        if (reinforcements !== "") side.reinforcement_tokens = Number(reinforcements);
      } else {
        side.heroes = picked(`hero-${team}`);
      }
      const health = fieldset.querySelector(".health").value;
      if (health !== "" && mode !== "boss-versus-boss") side.health_tokens = Number(health);
      return side;
    });
    const game = { mode, sides };
    if (firstEdition) {
      game.board_side = $("wiz-board-side").value;
      game.armour_tokens = $("wiz-armour").checked;
    } else {
      game.first = $("wiz-first").value;
      if (mode === "boss-versus-boss") game.game_length = $("wiz-length").value;
      if (mode === "team" && $("wiz-quick-start").checked) game.quick_start = true;
    }
    if (offer && $("wiz-for-match").checked) game.match = offer;
    return game;
  }

  async function loadChoices(ruleset) {
    const url = `${body.dataset.choicesUrl}?ruleset=${encodeURIComponent(ruleset)}`;
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) return;
    const choices = await response.json();
    $("wiz-ruleset").textContent = choices.title || "this table's game";
    if (choices.from_table_file) {  // a game the wizard does not set up from a choice: say so, offer nothing
      const note = $("wiz-from-file");
      note.textContent = `A ${choices.title} game is set up from the table file's game section.`;
      note.hidden = false; note.classList.remove("hidden");
      $("wiz-3e").hidden = true; $("wiz-3e").classList.add("hidden");
      $("wiz-start").hidden = true;  // nothing to start from here
      return;
    }
    if (choices.modes) { castlesChoices(choices); return; }
    choices.heroes.forEach((h) => tick($("wiz-heroes"), "hero", h));
    if (choices.all_heroes) {  // every hero plays (Catacombs 1E): shown chosen, not a choice
      $("wiz-heroes").querySelectorAll("input").forEach((box) => { box.checked = true; box.disabled = true; });
      show($("wiz-all-heroes"), true);
    }
    (choices.castles_heroes || []).forEach((h) => tick($("wiz-3e-castles-heroes"), "hero", h));
    show($("wiz-3e-castles-box"), !!(choices.castles_heroes || []).length);
    choices.rooms.forEach((r) => tick($("wiz-rooms"), "room", r));
    show($("wiz-rooms-box"), choices.rooms.length > 0);
    show($("wiz-rooms-dealt"), choices.rooms.length === 0);
    for (const lord of choices.lords) {
      const option = document.createElement("option"); option.value = lord.id; option.textContent = lord.name;
      $("wiz-lord").append(option);
    }
  }

  function picked(name) {
    return Array.from(document.querySelectorAll(`input[name=${name}]:checked`)).map((b) => b.value);
  }

  // A disc on the wizard's mat by the character on it (its initials, as the game's mat draws them), else by
  // its own name in words ("dungeon-1" → "dungeon 1").
  function discLabel(piece, characters) {
    const c = (characters || []).find((x) => x.piece === piece.piece || x.id === piece.character);
    if (c && c.name && window.SmartmatBoard) return window.SmartmatBoard.initials(c.name, c.kind);
    return String(piece.piece).replace(/-/g, " ");
  }

  function drawMat(svg, board, characters) {
    const mat = (board && board.mat) || JSON.parse(body.dataset.mat || "{}");
    svg.setAttribute("viewBox", `0 0 ${mat.width_mm || 860} ${mat.height_mm || 610}`);
    svg.textContent = "";
    for (const piece of (board && board.pieces) || []) {
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("cx", piece.x_mm); circle.setAttribute("cy", piece.y_mm);
      circle.setAttribute("r", piece.radius_mm || 15); circle.setAttribute("class", "seen");
      circle.dataset.piece = piece.piece;
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", piece.x_mm); label.setAttribute("y", piece.y_mm - (piece.radius_mm || 15) - 12);
      label.setAttribute("class", "piece"); label.textContent = discLabel(piece, characters);
      svg.append(circle, label);
    }
  }

  // The tournament hub's offer of this table's match: the wizard's game is then that match (each side
  // named by its entrant, in the offer's order), unless the referee unticks the box.
  let offer = null;
  let modeSetFor = "";  // the offer whose mode the wizard has chosen (once the modes have loaded)
  function showMatch(match) {
    offer = match || null;
    $("wiz-match").classList.toggle("hidden", !offer);
    $("wiz-match").hidden = !offer;
    if (!offer) return;
    $("wiz-match-names").textContent = `round ${offer.round}, ${offer.sides.map((side) => side.name).join(" v ")}`;
    const key = JSON.stringify(offer);
    if (modeSetFor !== key && [...$("wiz-mode").options].some((o) => o.value === offer.mode)) {
      modeSetFor = key;
      $("wiz-mode").value = offer.mode;
      $("wiz-mode").dispatchEvent(new Event("change"));
    }
  }

  function render(view) {
    showMatch(view.match);
    const state = view.state || {};
    if (!body.dataset.ruleset && state.ruleset) {  // the table's rule set: the choices the wizard offers
      body.dataset.ruleset = state.ruleset;
      loadChoices(state.ruleset);
    }
    const table = state.table || {};
    if (!tableExpansions && table.expansions) {  // the first view: the box starts as the game on the table is
      tableExpansions = table.expansions;
      const box = $("wiz-3e-castles");
      if (tableExpansions.includes("castles") && !box.checked) {
        box.checked = true;
        box.dispatchEvent(new Event("change"));
      }
    }
    const board = view.board || {};
    const characters = state.characters || [];
    const heroes = characters.filter((c) => c.kind === "hero" || c.kind === "boss").map((c) => c.name);
    const MODES = { team: "Team Mode", "one-versus-one": "One versus One", boss: "Boss Mode", "boss-versus-boss": "Boss vs Boss" };
    const mode = state.mode ? `${MODES[state.mode] || state.mode}: ` : "";
    $("wiz-current").textContent = state.phase === "no_game" || !state.phase ? "no game yet"
      : `game ${(state.table && state.table.game) || 1}: ${mode}${heroes.join(", ")}`;

    const seen = new Set(((board.pieces) || []).map((p) => p.piece));
    const pieces = $("wiz-pieces"); pieces.textContent = "";
    const wanted = characters.filter((c) => c.piece && c.on_mat !== false);
    for (const c of wanted) {
      item(pieces, seen.has(c.piece), `${c.name}: ${seen.has(c.piece) ? "seen on the mat" : "not seen yet"}`, { piece: c.piece });
    }
    if (!wanted.length) item(pieces, false, "no pieces to place yet: start a game first");
    drawMat($("wiz-mat"), board, characters);

    const trackers = $("wiz-trackers");
    const wantedList = (state.trackers || []).map((t) => t.id + "=" + (t.character || "")).join(",")
      + "|" + characters.map((c) => c.id).join(",");
    if (trackers.dataset.drawn !== wantedList) {  // redrawn only when something changed: a select stays open
      trackers.dataset.drawn = wantedList;
      trackers.textContent = "";
      for (const t of state.trackers || []) {
        const li = document.createElement("li");
        li.dataset.ok = String(!!t.character); li.dataset.tracker = t.id; li.dataset.character = t.character || "";
        const text = document.createElement("span");
        const beside = characters.find((c) => c.id === t.character);
        text.textContent = `${t.id} (${t.kind}${t.topic ? `, ${t.topic}` : ""}): ${t.character ? `beside ${beside ? beside.name : t.character}` : "not assigned"} `;
        const select = document.createElement("select");
        select.setAttribute("aria-label", `who ${t.id} stands beside`);
        const none = document.createElement("option"); none.value = ""; none.textContent = "nobody";
        select.append(none);
        for (const c of characters) {
          const option = document.createElement("option"); option.value = c.id; option.textContent = c.name;
          if (c.id === t.character) option.selected = true;
          select.append(option);
        }
        const button = document.createElement("button");
        button.type = "button"; button.className = "secondary"; button.textContent = "Assign";
        button.addEventListener("click", () => send("assign_tracker", { tracker: t.id, character: select.value || null }, button));
        li.append(text, select, button);
        trackers.append(li);
      }
    }
    if (!(state.trackers || []).length && !trackers.children.length) item(trackers, true, "No LED trackers at this table: nothing to assign.");

    const health = $("wiz-health"); health.textContent = "";
    const link = !!(state.health && state.health.serial_link);
    const online = view.status === "online";
    const assigned = (state.trackers || []).filter((t) => t.character).length;
    const wled = (state.trackers || []).filter((t) => t.kind === "wled");
    const report = view.trackers;  // the WLED bridge's own report, when it runs
    const devicesOnline = wled.filter((t) => report && report.devices && report.devices[t.id] === "online").length;
    const bridgeUp = !wled.length || (report && report.bridge === "online");
    const listed = (state.trackers || []).length;
    // LED trackers are optional: a table whose file lists none is ready without them.
    const trackerText = !listed ? "Trackers: none at this table (they are optional)"
      : `Trackers: ${assigned} of ${listed} assigned` + (!wled.length ? ""
      : bridgeUp ? `, ${devicesOnline} of ${wled.length} WLED devices online` : ", the WLED bridge (smartmat trackers) is not running");
    const calibration = (state.calibration && state.calibration.status) || {};
    const checks = [
      ["serial", link, link ? "Mat: connected over its serial link" : "Mat: no serial link (is the USB cable in?)"],
      ["broker", online, online ? "Broker: the table is online" : "Broker: the table is not online"],
      ["trackers", assigned === listed && bridgeUp && devicesOnline === wled.length, trackerText],
      ["calibration", !!calibration.ok, `Calibration: ${calibration.text || "unknown"}`],
    ];
    for (const [name, ok, text] of checks) item(health, ok, text, { check: name });
    const failing = checks.filter((c) => !c[1]).length;
    $("wiz-verdict").textContent = failing ? `${failing} check(s) need attention before play.` : "Everything is ready: let the game begin.";
  }

  async function refresh() {
    try {
      const response = await fetch(body.dataset.viewUrl, { credentials: "same-origin" });
      if (response.ok) render(await response.json());
    } catch (err) { /* the next poll tries again */ }
  }

  // Catacombs 3E with the Castles cards: their heroes join the choice, and the game names the expansion.
  $("wiz-3e-castles").addEventListener("change", () => {
    const on = $("wiz-3e-castles").checked;
    $("wiz-3e-castles-heroes").classList.toggle("hidden", !on);
    $("wiz-3e-castles-heroes").hidden = !on;  // hidden even before the stylesheet has loaded
    if (!on) $("wiz-3e-castles-heroes").querySelectorAll("input:checked").forEach((b) => { b.checked = false; });
  });

  function catacombsGame() {
    // The next game keeps the game's other expansions (Soloth, say); the box adds or drops the Castles cards.
    const others = (tableExpansions || []).filter((e) => e !== "castles");
    const expansions = $("wiz-3e-castles").checked ? [...others, "castles"] : others;
    if (!$("wiz-3e-castles-box").hidden) return { heroes: picked("hero"), lord: $("wiz-lord").value, rooms: picked("room"), expansions };
    return { heroes: picked("hero"), lord: $("wiz-lord").value, rooms: picked("room") };  // a game without expansions
  }

  $("wiz-start").addEventListener("click", () => send("setup_game", $("wiz-castles").classList.contains("hidden")
    ? catacombsGame() : castlesGame(), $("wiz-start")));
  $("wiz-rescan").addEventListener("click", () => send("rescan", {}, $("wiz-rescan")));
  refresh();
  setInterval(refresh, 700);
})();

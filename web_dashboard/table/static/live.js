// The table as this page knows it, kept current by Server-Sent Events. The browser's EventSource resends the
// last `id` (the event-log seq) on reconnect, and the server answers with exactly the events we missed.
"use strict";
window.Smartmat = (function () {
  const body = document.body;
  const table = {
    status: null, state: null, board: null, shot: null, characters: {},
    events: [], seenIds: new Set(), eventMessages: 0,
  };
  const renderers = [];
  let source = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else if (k.startsWith("data-")) node.setAttribute(k, v); else node[k] = v;
    }
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Cards printed in another language (Catacombs 1E is Italian) are read in English: every name the table
  // sends is put into English as it arrives, and a character keeps its printed name as ``printed_name`` for
  // the cards that show it beside (web_dashboard/spectator.py english_names, from the content files).
  let englishNames = {};
  try { englishNames = JSON.parse(body.dataset.englishNames || "{}"); } catch (err) { englishNames = {}; }
  const patterns = {};
  function translator(ruleset) {
    const names = englishNames[ruleset];
    if (!names || !Object.keys(names).length) return null;
    if (!patterns[ruleset]) {
      const printed = Object.keys(names).sort((a, b) => b.length - a.length)
        .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      patterns[ruleset] = new RegExp(`(?<![\\p{L}'])(${printed.join("|")})(?![\\p{L}])`, "gu");
    }
    return (text) => text.replace(patterns[ruleset], (m) => names[m] || m);
  }
  function inEnglish(value, ruleset) {
    const tr = translator(ruleset);
    if (!tr) return value;
    const walk = (v) => {
      if (typeof v === "string") return tr(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === "object") {
        const out = {};
        for (const [k, x] of Object.entries(v)) out[k] = walk(x);
        if (typeof v.name === "string" && out.name !== v.name) out.printed_name = v.name;
        return out;
      }
      return v;
    };
    return walk(value);
  }
  const rulesetOf = (state) => (state && state.ruleset) || (table.state && table.state.ruleset) || null;

  function characterName(id) {
    const list = (table.state && table.state.characters) || [];
    const found = list.find((c) => c.id === id);
    return found ? found.name : id;
  }

  function render(reason) {
    for (const fn of renderers) {
      try { fn(table, reason); } catch (err) { console.error("render failed", err); }
    }
  }

  function addEvent(id, event) {
    if (id && table.seenIds.has(id)) return false;
    if (id) table.seenIds.add(id);
    // A new game's first event closes the story of the game before it (a page opened later gets both).
    if (event.type === "game_started") table.events = table.events.filter((e) => e.type === "game_closed" || e.type === "game_abandoned");
    table.events.push(Object.assign({ id: id }, event));
    if (table.events.length > 200) table.events.splice(0, table.events.length - 200);
    return true;
  }

  function setLink(text, cls) {
    const badge = document.getElementById("link-status");
    if (!badge) return;
    badge.textContent = text;
    badge.className = "badge " + (cls || "");
  }

  function showTableStatus() {
    if (table.status === "offline") setLink("table offline", "bad");
    else if (table.status === "online") setLink("live", "good");
    else setLink("waiting for the table", "warn");
  }

  function connect() {
    source = new EventSource(body.dataset.eventsUrl);
    source.addEventListener("open", showTableStatus);
    source.addEventListener("error", () => setLink("reconnecting…", "warn"));
    source.addEventListener("hello", (e) => {
      const view = JSON.parse(e.data);
      const ruleset = rulesetOf(view.state);
      table.status = view.status; table.state = inEnglish(view.state, ruleset); table.board = view.board;
      table.shot = inEnglish(view.shot, ruleset); table.characters = view.characters || {}; table.match = view.match || null;
      showTableStatus();
      render("hello");
    });
    source.addEventListener("reset", () => {
      // The daemon started a new game log: the old story no longer applies.
      table.events = []; table.seenIds = new Set(); table.shot = null;
      render("hello");
    });
    source.addEventListener("snapshot", (e) => {
      const next = inEnglish(JSON.parse(e.data), rulesetOf(JSON.parse(e.data)));
      const game = (s) => (s && s.table && s.table.game) || null;
      if (table.state && game(next) !== null && game(table.state) !== null && game(next) !== game(table.state)) {
        // The table moved on to its next game: the last game's shot and story are no longer this game's.
        table.shot = null;
        table.events = table.events.filter((ev) => ev.type === "game_started" || ev.type === "game_closed");
      }
      table.state = next;
      render("snapshot");
    });
    source.addEventListener("board", (e) => { table.board = JSON.parse(e.data); render("board"); });
    source.addEventListener("shot", (e) => { table.shot = inEnglish(JSON.parse(e.data), rulesetOf()); render("shot"); });
    source.addEventListener("match", (e) => { table.match = JSON.parse(e.data).match; render("match"); });
    source.addEventListener("character", (e) => {
      const c = JSON.parse(e.data);
      if (c.removed) delete table.characters[c.id]; else table.characters[c.id] = c;
      render("character");
    });
    source.addEventListener("status", (e) => {
      table.status = JSON.parse(e.data).status;
      showTableStatus();
      render("status");
    });
    source.addEventListener("event", (e) => {
      table.eventMessages += 1;  // before de-duplication: lets a test see that the server repeated nothing
      if (addEvent(e.lastEventId, inEnglish(JSON.parse(e.data), rulesetOf()))) render("event");
    });
  }

  // Shared by every page: room, round, whose turn, what the table waits for, pause, the result.
  function renderSummary(t) {
    const s = t.state;
    const W = window.SmartmatWords;
    const set = (id, text) => { const n = document.getElementById(id); if (n) n.textContent = text; };
    if (!s) return;
    const room = s.room || {};
    const where = s.phase === "no_game" ? "Between games" : (s.room ? "" : "Before the first room");
    set("room-name", room.name ? `Room ${Number(room.index || 0) + 1}: ${room.name}` : where);
    set("round", s.round ? `round ${s.round}` : "");
    set("phase", s.phase === "battle" ? "· battle" : "");
    const turn = s.turn || {};
    set("turn-who", turn.character ? characterName(turn.character) : (turn.side ? W.side(turn.side) : "—"));
    const turnLine = document.querySelector(".summary .turn");
    if (turnLine) turnLine.hidden = !s.turn;  // only a battle has turns
    set("moment", W.moment(s));
    const paused = document.getElementById("paused");
    if (paused) paused.hidden = !s.paused;
    const outcome = document.getElementById("outcome");
    if (outcome) {
      const r = s.result || (s.outcome ? { headline: s.outcome === "heroes" ? "The heroes win" : "The Overseer wins" } : null);
      outcome.hidden = !r;
      outcome.className = "outcome" + (r ? " winner-" + (r.winner || s.outcome) : "");
      set("result-headline", r ? ((r.winner || s.outcome) === "overseer" ? "☠ " : "★ ") + r.headline : "");
      set("result-summary", r ? (r.summary || "") : "");
      set("result-gold", r && r.gold != null ? String(r.gold) : "–");  // a game without gold or rooms: a dash
      set("result-rooms", r && r.rooms_cleared != null ? `${r.rooms_cleared} of ${r.rooms_total}` : "–");
    }
    document.body.classList.toggle("game-over", Boolean(s.result || s.outcome));
  }

  function renderBoard(t) {
    const svg = document.getElementById("board");
    if (svg && window.SmartmatBoard) window.SmartmatBoard.draw(svg, t.board, t.state, t.shot, api.boardOptions(t));
  }

  // Bright rooms: a light, high-contrast theme the phone remembers (the dark one suits a dim convention hall).
  function setUpTheme() {
    const toggle = document.getElementById("theme-toggle");
    let saved = null;
    try { saved = localStorage.getItem("smartmat-theme"); } catch (err) { /* private mode */ }
    const apply = (theme) => {
      document.documentElement.dataset.theme = theme;
      if (toggle) {
        toggle.setAttribute("aria-pressed", String(theme === "light"));
        toggle.textContent = theme === "light" ? "☾" : "☀";
      }
    };
    // ?theme=dark or ?theme=light in the address wins: a streaming browser source has no one to tap it.
    const asked = new URLSearchParams(location.search).get("theme");
    const wanted = asked === "light" || asked === "dark" ? asked : saved;
    apply(wanted || (window.matchMedia && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark"));
    if (toggle) toggle.addEventListener("click", () => {
      const next = document.documentElement.dataset.theme === "light" ? "dark" : "light";
      try { localStorage.setItem("smartmat-theme", next); } catch (err) { /* not kept */ }
      apply(next);
      render("theme");
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    setUpTheme();
    renderers.push(renderSummary, renderBoard);
    // Every page with the live badge follows the stream (the set-up pages too), so the badge says "live" or
    // "table offline" and never stays on "connecting…".
    if (body.dataset.eventsUrl && document.getElementById("link-status")) connect();
  });

  // Pages replace this to add candidate paths or a highlighted piece to the shared board.
  const api = { table, el, characterName, inEnglish, onRender: (fn) => renderers.push(fn), render,
    boardOptions: () => ({ animate: true }) };
  return api;
})();

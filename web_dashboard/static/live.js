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
      table.status = view.status; table.state = view.state; table.board = view.board;
      table.shot = view.shot; table.characters = view.characters || {};
      showTableStatus();
      render("hello");
    });
    source.addEventListener("reset", () => {
      // The daemon started a new game log: the old story no longer applies.
      table.events = []; table.seenIds = new Set(); table.shot = null;
      render("hello");
    });
    source.addEventListener("snapshot", (e) => { table.state = JSON.parse(e.data); render("snapshot"); });
    source.addEventListener("board", (e) => { table.board = JSON.parse(e.data); render("board"); });
    source.addEventListener("shot", (e) => { table.shot = JSON.parse(e.data); render("shot"); });
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
      if (addEvent(e.lastEventId, JSON.parse(e.data))) render("event");
    });
  }

  // Shared by every page: room, round, whose turn, pause, outcome.
  function renderSummary(t) {
    const s = t.state;
    const set = (id, text) => { const n = document.getElementById(id); if (n) n.textContent = text; };
    if (!s) return;
    const room = s.room || {};
    set("room-name", room.name ? `Room ${Number(room.index || 0) + 1}: ${room.name}` : (s.phase || ""));
    set("round", s.round ? `round ${s.round}` : "");
    set("phase", s.phase ? `· ${s.phase.replace("_", " ")}` : "");
    const turn = s.turn || {};
    set("turn-who", turn.character ? characterName(turn.character) : (turn.side || "—"));
    const paused = document.getElementById("paused");
    if (paused) paused.hidden = !s.paused;
    const outcome = document.getElementById("outcome");
    if (outcome) {
      outcome.hidden = !s.outcome;
      outcome.textContent = s.outcome ? (s.outcome.text || JSON.stringify(s.outcome)) : "";
    }
  }

  function renderBoard(t) {
    const svg = document.getElementById("board");
    if (svg && window.SmartmatBoard) window.SmartmatBoard.draw(svg, t.board, t.state, t.shot, api.boardOptions(t));
  }

  document.addEventListener("DOMContentLoaded", () => {
    renderers.push(renderSummary, renderBoard);
    if (body.dataset.eventsUrl && document.querySelector(".summary")) connect();
  });

  // Pages replace this to add candidate paths or a highlighted piece to the shared board.
  const api = { table, el, characterName, onRender: (fn) => renderers.push(fn), render,
    boardOptions: () => ({ animate: true }) };
  return api;
})();

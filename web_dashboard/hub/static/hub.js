// Live pages: when the hub says something changed, re-read this page and swap its live part.
(function () {
  "use strict";
  const live = document.getElementById("live");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  let timer = null;

  function busy() {
    // A referee choosing a winner or typing must not have the form redrawn under their fingers.
    const active = document.activeElement;
    return active && live.contains(active) && active.matches("input, select, textarea");
  }

  function refresh() {
    timer = null;
    if (busy()) {
      timer = setTimeout(refresh, 1000);
      return;
    }
    fetch(window.location.pathname, { credentials: "same-origin" })
      .then((r) => r.text())
      .then((html) => {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh) {
          const chosen = choices();
          live.innerHTML = fresh.innerHTML;
          restore(chosen);
          showAnswers();
          live.dataset.updated = String(Date.now());
        }
      })
      .catch(() => {});
  }

  // What the referee has chosen or typed in the live part survives its redraw: a winner picked a moment
  // before the redraw, with the focus already on the button, must be the winner the button sends.
  const CONTROLS = "form select[name], form input[name], form textarea[name]";

  function controlKey(el) {
    const form = el.closest("form");
    const where = form ? form.dataset.table || form.id || "" : "";
    return where + "|" + el.name;
  }

  function choices() {
    const kept = new Map();
    live.querySelectorAll(CONTROLS).forEach((el) => {
      if (el.tagName === "SELECT" || el.value !== el.defaultValue) kept.set(controlKey(el), el.value);
    });
    return kept;
  }

  function restore(kept) {
    live.querySelectorAll(CONTROLS).forEach((el) => {
      const value = kept.get(controlKey(el));
      if (value === undefined) return;
      if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === value)) return;
      el.value = value;
    });
  }

  function soon() {
    if (timer === null) timer = setTimeout(refresh, 200);
  }

  if (live.dataset.live === "yes" && window.EventSource) {
    const stream = new EventSource("/hub/api/stream");
    // Whatever changed between this page being drawn and the stream (re)connecting is read again.
    stream.addEventListener("open", soon);
    stream.addEventListener("table", soon);
    stream.addEventListener("tournament", soon);
    // A log record arrived: the row's count moves at once, without re-reading the page.
    stream.addEventListener("log", (event) => {
      const data = JSON.parse(event.data);
      const row = live.querySelector(`tr[data-table="${CSS.escape(data.table)}"]`);
      const cell = row && row.querySelector("td.log");
      if (cell) cell.textContent = data.log_held + "/" + data.log_head;
      else soon();  // a table not on the page yet
    });
  }

  // Each answer is shown beside the button that asked, in words, and stays there through redraws.
  const answers = new Map();

  function showAnswers() {
    document.querySelectorAll("output[data-answer-for]").forEach((box) => {
      const said = answers.get(box.dataset.answerFor);
      box.textContent = said ? said.text : "";
      box.classList.toggle("refused", Boolean(said && !said.ok));
    });
  }

  function post(path, body, where) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    })
      .then((r) => r.json())
      .then((reply) => {
        if (document.activeElement) document.activeElement.blur();
        const text = reply.ok ? reply.message || "Done." : "Not done: " + reply.error;
        answers.set(where, { ok: reply.ok, text: text });
        showAnswers();
        soon();
        return reply;
      })
      .catch(() => {
        answers.set(where, { ok: false, text: "Not done: the hub did not answer (is it still running?)" });
        showAnswers();
      });
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.classList.contains("sign-off")) {
      event.preventDefault();
      const winner = form.querySelector("[name=winner]");
      const body = { table: form.dataset.table, winner: winner ? winner.value || null : null };
      if (form.dataset.stopped === "yes") body.stopped_at_time = true;
      post("/hub/api/sign-off", body, form.dataset.table);
    } else if (form.id === "correct") {
      event.preventDefault();
      const data = Object.fromEntries(new FormData(form));
      const body = { round: Number(data.round), table: data.table, reason: data.reason };
      if (data.winner) body.winner = data.winner;
      if (data.rooms_cleared !== "") body.rooms_cleared = Number(data.rooms_cleared);
      if (data.gold !== "") body.gold = Number(data.gold);
      post("/hub/api/correct", body, "correct");
    } else if (form.id === "pair") {
      event.preventDefault();
      const tables = new FormData(form).get("tables").split(",").map((t) => t.trim()).filter(Boolean);
      post("/hub/api/pair", { tables: tables }, "pair");
    }
  });
})();

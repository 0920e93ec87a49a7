// Enrolling discs from the referee's set-up page: reads the table's state ("enrolment"), sends enrol_*.
"use strict";
(function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const PROBLEMS = new Set(["already_on_mat", "duplicate_tag", "several_tags", "unknown_tag", "not_saved"]);

  const send = window.smartmatSetup.commandSender(refresh);  // refresh: a hoisted declaration below

  // A disc by the character standing on it when the game knows one ("Xoric the Barbarian's disc"), else by
  // its own name in words ("dungeon-3" → "dungeon 3"): the referee reads names, the table file keeps the ids.
  function discName(piece, state) {
    const c = ((state && state.characters) || []).find((x) => x.piece === piece || x.id === piece);
    return c && c.name ? `${c.name}'s disc` : `disc ${String(piece).replace(/-/g, " ")}`;
  }

  function render(state) {
    const view = (state && state.enrolment) || { active: false };
    $("enrol-start-card").classList.toggle("hidden", !!view.active);
    $("enrol-run-card").classList.toggle("hidden", !view.active);
    $("enrol-finished").textContent = view.finished ? view.finished.text : "";
    if (!view.active) return;
    $("enrol-next").textContent = view.next_piece ? `Put ${discName(view.next_piece, state)} on the mat` : "Every disc of the set has its tag";
    $("enrol-progress").textContent = `${view.enrolled.length} of ${view.total} discs enrolled in set ${view.set}`;
    const notices = $("enrol-notices"); notices.textContent = "";
    for (const notice of view.notices.slice().reverse()) {
      const li = document.createElement("li");
      li.dataset.ok = String(!PROBLEMS.has(notice.kind));
      li.dataset.kind = notice.kind;
      li.textContent = notice.text;
      notices.append(li);
    }
    const done = $("enrol-done"); done.textContent = "";
    for (const entry of view.enrolled) {
      const li = document.createElement("li");
      li.dataset.ok = "true"; li.dataset.piece = entry.piece;
      li.textContent = `${discName(entry.piece, state)}: tag ${entry.uid} `;
      const undo = document.createElement("button");
      undo.type = "button"; undo.className = "linkbutton"; undo.textContent = "take back";
      undo.addEventListener("click", () => send("enrol_forget", { piece: entry.piece }, $("enrol-done")));
      li.append(undo);
      done.append(li);
    }
  }

  async function refresh() {
    try {
      const response = await fetch(body.dataset.viewUrl, { credentials: "same-origin" });
      if (response.ok) render((await response.json()).state);
    } catch (err) { /* the next poll tries again */ }
  }

  $("enrol-start").addEventListener("click", () => {
    const pieces = $("enrol-pieces").value.split(",").map((p) => p.trim()).filter(Boolean);
    send("enrol_start", pieces.length ? { set: $("enrol-set").value.trim(), pieces } : { set: $("enrol-set").value.trim() }, $("enrol-start"));
  });
  $("enrol-finish").addEventListener("click", () => send("enrol_finish", {}, $("enrol-finish")));
  $("enrol-cancel").addEventListener("click", () => send("enrol_cancel", {}, $("enrol-cancel")));
  refresh();
  setInterval(refresh, 300);  // a disc put down shows at once
})();

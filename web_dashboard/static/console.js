// Referee console: confirm or fix a doubtful shot, manual shot entry, corrections, undo, pause / resume, re-scan.
"use strict";
(function () {
  const S = window.Smartmat, R = window.SmartmatReferee;
  const PATH_CLASSES = ["c0", "c1", "c2", "c3"];

  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }
  function names(ids) { return (ids || []).map(S.characterName).join(", ") || "nothing"; }
  function formArgs(form) {
    const args = {};
    for (const [k, v] of new FormData(form).entries()) if (v !== "") args[k] = v;
    return args;
  }

  S.onRender(function (t) {
    const shot = t.shot;
    const waiting = Boolean(t.state && t.state.table && t.state.table.pending_shot);
    document.getElementById("dismiss-shot").hidden = !waiting;
    const list = document.getElementById("candidates");
    clear(list);
    const state = document.getElementById("shot-state");
    if (shot) {
      const d = shot.declaration || {};
      document.getElementById("shot-title").textContent = `${S.characterName(d.flicked || "")} · ${d.shot || ""}`;
      state.textContent = shot.set_aside ? "Set aside: flick again." : shot.auto_apply ? "Applied automatically (confident)."
        : (shot.resolved ? "Confirmed." : "Doubtful — confirm the hits or fix them.");
      state.className = shot.auto_apply || shot.resolved || shot.set_aside ? "muted" : "warn";
      (shot.set_aside ? [] : shot.candidates || []).forEach((c, i) => {
        const li = S.el("li", { class: "candidate " + PATH_CLASSES[i % 4] });
        li.appendChild(S.el("span", { class: "prob" }, `${Math.round((c.probability || 0) * 100)}%`));
        li.appendChild(S.el("span", { class: "hits" }, `hits ${names(c.hit_characters || c.direct_hits)}`));
        if (c.pushed && c.pushed.length) li.appendChild(S.el("span", { class: "muted" }, ` · pushed ${names(c.pushed)}`));
        const b = S.el("button", { class: "big confirm", type: "button", "data-candidate": i }, "This one");
        b.addEventListener("click", () => R.send("confirm_hits", Object.assign(
          { direct_hits: c.direct_hits || [], candidate: i }, shot.shot_seq !== undefined ? { shot: String(shot.shot_seq) } : {})));
        li.appendChild(b);
        list.appendChild(li);
      });
    }
    // Who can be corrected or chosen as flicked / hit.
    const chars = (t.state && t.state.characters) || [];
    for (const id of ["correct-target", "manual-flicked", "bind-character"]) {
      const select = document.getElementById(id);
      const current = select.value;
      clear(select);
      if (id === "correct-target") select.appendChild(S.el("option", { value: "party" }, "party (gold)"));
      for (const c of chars) select.appendChild(S.el("option", { value: c.id }, c.name || c.id));
      if (current) select.value = current;
    }
    const hits = document.getElementById("manual-hits");
    const checked = new Set([...hits.querySelectorAll("input:checked")].map((i) => i.value));
    clear(hits);
    for (const c of chars.filter((c) => c.alive !== false)) {
      const label = S.el("label", { class: "check" });
      const box = S.el("input", { type: "checkbox", name: "direct_hits", value: c.id });
      box.checked = checked.has(c.id);
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + (c.name || c.id)));
      hits.appendChild(label);
    }
  });

  // Every candidate's reconstructed path over the mat, in its list colour.
  S.boardOptions = (t) => ({
    candidatePaths: ((t.shot && t.shot.candidates) || []).slice(0, 4).map((c, i) => ({ path: c.path, cls: PATH_CLASSES[i] })),
  });

  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("pause").addEventListener("click", () => R.send("pause", {}));
    document.getElementById("resume").addEventListener("click", () => R.send("resume", {}));
    document.getElementById("rescan").addEventListener("click", () => R.send("rescan", {}));
    document.getElementById("dismiss-shot").addEventListener("click", () => R.send("dismiss_shot", { reason: "set aside by the referee" }));
    document.getElementById("undo-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const args = formArgs(e.target);
      R.send("undo", { count: Number(args.count || 1), reason: args.reason || "" });
    });
    document.getElementById("correct-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const a = formArgs(e.target);
      const args = a.field === "card"
        ? { target: a.target, field: "card", card: a.card, change: a.change, reason: a.reason }
        : { target: a.target, field: a.field, value: Number(a.value), reason: a.reason };
      R.send("correct", args);
    });
    document.getElementById("bind-form").addEventListener("submit", (e) => {
      e.preventDefault();
      R.send("bind", formArgs(e.target));
    });
    document.getElementById("manual-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const form = e.target;
      const hits = [...form.querySelectorAll("input[name=direct_hits]:checked")].map((i) => i.value);
      R.send("manual_shot", { flicked: form.flicked.value, shot: form.shot.value, direct_hits: hits, reason: form.reason.value });
    });
  });
})();

// Referee console: confirm or fix a doubtful shot, manual shot entry, corrections, undo, pause / resume, re-scan.
// It never shows a control that cannot work: buttons are enabled only when the table would accept them.
"use strict";
(function () {
  const S = window.Smartmat, R = window.SmartmatReferee, W = window.SmartmatWords;
  const PATH_CLASSES = ["c0", "c1", "c2", "c3"];
  let alertedFor = null;  // the waiting shot the referee was last alerted to
  let audio = null;       // one sound context, opened by the referee's first tap (browsers require one)
  document.addEventListener("pointerdown", () => {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctx) { try { audio = new Ctx(); } catch (err) { audio = null; } }
    if (audio && audio.state === "suspended") audio.resume();
  }, { passive: true });

  // The tools a referee reaches for now and then (corrections, discs, a shot by hand, the QR code) and the
  // long Health Pools are folded on a phone, so the waiting shot, the mat and Undo fit about two screens; a
  // wide screen opens them.
  if (window.matchMedia("(min-width: 900px)").matches) {
    document.querySelectorAll("details.tool").forEach((tool) => { tool.open = true; });
  }

  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }
  function names(ids) { return (ids || []).map(S.characterName).join(", ") || "nothing"; }
  function formArgs(form) {
    const args = {};
    for (const [k, v] of new FormData(form).entries()) if (v !== "") args[k] = v;
    return args;
  }

  // -- the shot ------------------------------------------------------------------------------------------------
  function waitingShot(t) {
    return (t.state && t.state.table && t.state.table.pending_shot) || null;
  }

  // Is this shot message the one the table waits on? (A shot message older than the waiting shot is not.)
  function isWaiting(shot, waiting) {
    return Boolean(shot && waiting && !shot.resolved && !shot.set_aside && !shot.undone &&
      (shot.shot_seq === undefined || shot.shot_seq === waiting.seq));
  }

  // Each reading's state in words: waiting, chosen, set aside, undone, not chosen.
  function readingState(shot, i, waiting) {
    if (shot.undone) return i === (Number.isInteger(shot.chosen) ? shot.chosen : 0) ? "undone" : "not chosen";
    if (shot.set_aside) return "set aside";
    if (waiting) return "waiting";
    if (shot.resolved) return shot.chosen === i ? "chosen" : (Number.isInteger(shot.chosen) ? "not chosen" : "entered by hand instead");
    if (shot.auto_apply) return i === 0 ? "chosen (automatically)" : "not chosen";
    return "waiting";
  }

  // Why a shot came to the referee, in words: the attribution's reasons, else what the numbers say.
  function reasons(shot, waitingSummary) {
    const list = [...((shot && (shot.reasons_said || shot.reasons)) || [])].map(W.plain);
    if (!shot && waitingSummary && !(waitingSummary.candidates || []).length) {
      list.push(`${waitingSummary.unreadable || "the mat could not read this shot"}: enter it by hand below`);
    }
    if (shot && !list.length) {
      const top = (shot.candidates || [])[0];
      const p = Math.round(((top && top.probability) || 0) * 100);
      const threshold = shot.threshold !== undefined ? Math.round(shot.threshold * 1000) / 10 : null;
      if (!top) list.push("no reading explains what the mat saw");
      else if (threshold !== null && p < threshold) list.push(`the best reading is ${p} % sure; the table applies one by itself from ${threshold} %`);
      else list.push("the table would not apply the best reading by itself");
      const second = (shot.candidates || [])[1];
      if (top && second && top.probability - second.probability < 0.2) list.push("two readings are close");
    }
    return list;
  }

  function alertReferee(waitingSeq) {
    if (!waitingSeq || alertedFor === waitingSeq) return;
    alertedFor = waitingSeq;
    const card = document.getElementById("shot-card");
    card.classList.remove("alerting"); void card.offsetWidth; card.classList.add("alerting");
    if (navigator.vibrate) { try { navigator.vibrate([180, 90, 180]); } catch (err) { /* not allowed here */ } }
    try {  // a short two-tone chime; browsers allow sound once the referee has tapped the page
      const ctx = audio;
      if (ctx && ctx.state === "running") {
        [660, 880].forEach((hz, i) => {
          const osc = ctx.createOscillator(), gain = ctx.createGain();
          osc.frequency.value = hz; gain.gain.value = 0.15;
          osc.connect(gain); gain.connect(ctx.destination);
          osc.start(ctx.currentTime + i * 0.18); osc.stop(ctx.currentTime + i * 0.18 + 0.15);
        });
      }
    } catch (err) { /* no sound on this browser */ }
    document.body.dataset.alerted = String(waitingSeq);
  }

  function renderShotCard(t) {
    const waitingSummary = waitingShot(t);
    // A shot message about an earlier shot is not the one waiting (the mat may have sent none for a shot it
    // could not read): then the card shows the waiting shot from the snapshot alone.
    const shot = t.shot && !(waitingSummary && t.shot.shot_seq !== undefined && t.shot.shot_seq !== waitingSummary.seq)
      ? t.shot : null;
    const waiting = isWaiting(shot, waitingSummary);
    const paused = Boolean(t.state && t.state.paused);
    const dismiss = document.getElementById("dismiss-shot");
    dismiss.hidden = !waitingSummary;
    dismiss.disabled = !waitingSummary;
    const list = document.getElementById("candidates");
    clear(list);
    const state = document.getElementById("shot-state");
    const badge = document.getElementById("shot-badge");
    const why = document.getElementById("shot-reasons");
    clear(why);
    if (waitingSummary) alertReferee(waitingSummary.seq);
    document.getElementById("shot-card").classList.toggle("waiting", Boolean(waitingSummary));
    if (!shot && !waitingSummary) {
      state.textContent = "No shot yet."; state.className = "muted"; badge.hidden = true; why.hidden = true;
      return;
    }
    const d = (shot && shot.declaration) || {};
    const shooter = d.character || (shot && shot.character) || (waitingSummary && waitingSummary.character) || d.flicked || "";
    const shotName = (d.shot || (shot && shot.shot) || (waitingSummary && waitingSummary.shot) || "").replace(/_/g, " ");
    // The disc the mat saw flicked, when it is not the shooter's own (a teammate's, a grabbed enemy's).
    const flicker = shot && shot.flicked_character;
    const flickedNote = flicker && flicker !== shooter ? ` · flicked: ${S.characterName(flicker)}` : "";
    document.getElementById("shot-title").textContent = `${S.characterName(shooter)} · ${shotName}${flickedNote}`;
    let word;
    const reading = !waitingSummary && shot.status === "attributing";  // the mat is still reading this shot
    if (waitingSummary) word = paused ? "Waiting for you — the game is paused: resume to confirm." : "Waiting for you: pick the reading that matches the table.";
    else if (reading) word = "Attributing: the mat is reading this shot. Enter it by hand below if it takes too long.";
    else if (shot.undone) word = "Undone: the referee took this shot back.";
    else if (shot.set_aside) word = "Set aside: flick again.";
    else if (shot.resolved) word = "Confirmed by the referee.";
    else if (shot.auto_apply) word = "Applied automatically (the table was sure).";
    else word = "Settled.";
    state.textContent = word;
    state.className = waitingSummary ? "warn" : "muted";
    badge.hidden = false;
    badge.textContent = waitingSummary ? "waiting" : reading ? "attributing" : shot.undone ? "undone" : shot.set_aside ? "set aside" : "settled";
    badge.className = "state-badge " + badge.textContent.replace(" ", "-");
    const because = !reading && (waitingSummary || (shot && !shot.auto_apply)) ? reasons(shot, waitingSummary) : [];
    for (const r of because) why.appendChild(S.el("li", {}, r));
    why.hidden = !because.length;
    if (!shot) return;
    (shot.candidates || []).forEach((c, i) => {
      const label = readingState(shot, i, waiting);
      const li = S.el("li", { class: `candidate ${PATH_CLASSES[i % 4]} state-${label.split(" ")[0]}`, "data-state": label });
      li.appendChild(S.el("span", { class: "prob" }, `${Math.round((c.probability || 0) * 100)}%`));
      const text = S.el("span", { class: "hits" }, `hits ${names(c.hit_characters || c.direct_hits)}`);
      if (c.pushed && c.pushed.length) text.appendChild(S.el("span", { class: "muted" }, ` · pushed ${c.pushed.length}`));
      li.appendChild(text);
      li.appendChild(S.el("span", { class: "reading-state" }, label));
      const b = S.el("button", { class: "big confirm", type: "button", "data-candidate": i }, "This one");
      b.disabled = !waiting || paused;
      b.addEventListener("click", () => R.send("confirm_hits", Object.assign(
        { direct_hits: c.direct_hits || [], candidate: i }, shot.shot_seq !== undefined ? { shot: String(shot.shot_seq) } : {}), b));
      li.appendChild(b);
      list.appendChild(li);
    });
  }

  // -- the table's controls ----------------------------------------------------------------------------------
  function renderTableControls(t) {
    const s = t.state || {};
    const toggle = document.getElementById("pause-toggle");
    const paused = Boolean(s.paused);
    toggle.setAttribute("aria-pressed", String(paused));
    toggle.textContent = paused ? "▶ Paused — tap to resume" : "⏸ Pause the game";
    toggle.classList.toggle("on", paused);
    toggle.disabled = !s.phase || s.phase === "no_game";
    const undo = document.getElementById("undo-button");
    undo.disabled = !(s.table && s.table.can_undo);
    // Undo says which move it takes back, and sends that move's record: the table takes back exactly it, or
    // refuses when another move came in between (service/table/commands.py).
    const next = s.table && s.table.undo_next;
    const count = Number(document.querySelector("#undo-form [name=count]").value || 1);
    undo.dataset.seq = next && count === 1 ? String(next.seq) : "";
    undo.textContent = next && count === 1 ? `Undo ${next.what}` : (count > 1 ? `Undo the last ${count} moves` : "Undo");
    // A shot entered by hand stands for the shot the table expects; with none expected it cannot work.
    const manual = document.getElementById("manual-button");
    manual.disabled = !s.expected_shot || paused;
    document.getElementById("manual-when").hidden = !manual.disabled;
  }

  // What each game lets the referee set by hand, by rule set (its GameDefinition's corrections, which the
  // page is served with; service/table/commands/corrections.py checks them): the form offers only these, and
  // starts on the first, so it never starts on something the table refuses.
  const CORRECTIONS = JSON.parse(document.getElementById("correct-form").dataset.corrections || "{}");
  function corrections(state) {
    return CORRECTIONS[String((state && state.ruleset) || "")] || [];
  }
  // Only the inputs the chosen correction uses are shown (a phone's screen is short).
  function showCorrectionInputs() {
    const form = document.getElementById("correct-form");
    const field = form.field.value;
    form.querySelector(".for-value").hidden = field === "card";
    form.querySelector(".for-card").hidden = !(field === "card" || field === "charge");
    form.querySelector(".for-change").hidden = field !== "card";
  }

  function renderForms(t) {
    // Who can be corrected or chosen as flicked / hit.
    const chars = (t.state && t.state.characters) || [];
    const castles = Boolean(t.state && (t.state.sides || []).length);
    for (const id of ["correct-target", "manual-flicked", "bind-character"]) {
      const select = document.getElementById(id);
      const current = select.value;
      clear(select);
      // A correction's first choice is one the game accepts: a living hero (a Castles warrior has no health
      // to set, its one point is undone with the shot that removed it).
      const listed = id === "correct-target"
        ? [...chars.filter((c) => c.alive !== false && c.kind !== "warrior"), ...chars.filter((c) => c.alive === false && c.kind !== "warrior"),
          ...(castles ? chars.filter((c) => c.kind === "warrior") : [])]
        : chars;
      for (const c of listed) select.appendChild(S.el("option", { value: c.id }, c.name || c.id));
      if (current && [...select.options].some((o) => o.value === current)) select.value = current;
    }
    // Only a table with physical decks has the referee name the cards it draws (as the turn controller).
    document.getElementById("draw-card").hidden = !(t.state && t.state.decks === "physical");
    const field = document.getElementById("correct-field");
    const offered = corrections(t.state);
    const key = offered.map((o) => o[0]).join(",");
    if (field.dataset.offered !== key) {
      const current = field.value;
      clear(field);
      for (const [value, label] of offered) field.appendChild(S.el("option", { value }, label));
      if (offered.some((o) => o[0] === current)) field.value = current;
      field.dataset.offered = key;
      showCorrectionInputs();
    }
    // The discs the mat sees, offered as the ones a character may move to (each with who stands on it now).
    const discs = document.getElementById("bind-discs");
    const seen = ((t.board && t.board.pieces) || []).map((p) => p.piece).sort();
    if (discs.dataset.seen !== seen.join(",")) {
      clear(discs);
      for (const piece of seen) {
        const on = chars.find((c) => c.piece === piece);
        discs.appendChild(S.el("option", { value: piece, label: on ? `${piece} (${on.name})` : `${piece} (free)` }));
      }
      discs.dataset.seen = seen.join(",");
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
  }

  S.onRender(function (t) {
    renderShotCard(t);
    renderTableControls(t);
    renderForms(t);
  });

  // Every candidate's reconstructed path over the mat, in its list colour.
  S.boardOptions = (t) => ({
    referee: true,
    candidatePaths: ((t.shot && !t.shot.set_aside && t.shot.candidates) || []).slice(0, 4).map((c, i) => ({ path: c.path, cls: PATH_CLASSES[i] })),
  });

  document.addEventListener("DOMContentLoaded", () => {
    const toggle = document.getElementById("pause-toggle");
    toggle.addEventListener("click", () => R.send(toggle.getAttribute("aria-pressed") === "true" ? "resume" : "pause", {}, toggle));
    const rescan = document.getElementById("rescan");
    rescan.addEventListener("click", () => R.send("rescan", {}, rescan));
    const dismiss = document.getElementById("dismiss-shot");
    dismiss.addEventListener("click", () => R.send("dismiss_shot", { reason: "set aside by the referee" }, dismiss));
    document.querySelector("#undo-form [name=count]").addEventListener("input", () => renderTableControls(S.table));
    document.getElementById("undo-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const args = formArgs(e.target);
      const seq = document.getElementById("undo-button").dataset.seq;
      R.send("undo", Object.assign({ count: Number(args.count || 1), reason: args.reason || "" },
        seq ? { seq: Number(seq) } : {}), e.submitter || e.target);
    });
    document.getElementById("correct-field").addEventListener("change", showCorrectionInputs);
    showCorrectionInputs();
    document.getElementById("correct-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const a = formArgs(e.target);
      const args = a.field === "card"
        ? { target: a.target, field: "card", card: a.card, change: a.change, reason: a.reason }
        : Object.assign({ target: a.target, field: a.field, value: Number(a.value), reason: a.reason },
          a.field === "charge" ? { card: a.card } : {});
      R.send("correct", args, e.submitter || e.target);
    });
    document.getElementById("draw-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const form = e.target;
      const cards = form.cards.value.split(",").map((c) => c.trim()).filter((c) => c);
      R.send("draw", { deck: form.deck.value, cards }, e.submitter || form);
    });
    document.getElementById("bind-form").addEventListener("submit", (e) => {
      e.preventDefault();
      R.send("bind", formArgs(e.target), e.submitter || e.target);
    });
    document.getElementById("manual-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const form = e.target;
      const hits = [...form.querySelectorAll("input[name=direct_hits]:checked")].map((i) => i.value);
      R.send("manual_shot", { flicked: form.flicked.value, shot: form.shot.value, direct_hits: hits, reason: form.reason.value }, e.submitter || form);
    });
  });
})();

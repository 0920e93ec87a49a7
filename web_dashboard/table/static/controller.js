// Turn controller: whose turn, legal actions as big buttons, the expected next shot, progress, decisions.
"use strict";
(function () {
  const S = window.Smartmat, R = window.SmartmatReferee, W = window.SmartmatWords;
  const CONNECTOR = { then: "then", or: "or", elastic: "any order" };

  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); }

  function shotLine(shots) {
    const parts = [];
    (shots || []).forEach((s, i) => {
      if (i > 0) parts.push(CONNECTOR[s.connector] || s.connector || "then");
      parts.push((s.shot || "?") + ((s.modifiers && s.modifiers.length) ? ` (${s.modifiers.join(", ")})` : ""));
    });
    return parts.join(" → ");
  }

  // The tournament hub's offer of this table's match: one tap starts it (the table file's game for the
  // match's mode, each side named by its entrant). Hidden once the game on the table is that match.
  function matchOffer(t) {
    const offer = t.match, s = t.state || {};
    const card = document.getElementById("match-card");
    const sideIds = (s.sides || []).map((side) => side.id).join(",");
    const playing = offer && sideIds === offer.sides.map((side) => side.id).join(",") && !s.outcome;
    const played = offer && sideIds === offer.sides.map((side) => side.id).join(",") && Boolean(s.outcome);
    card.hidden = !offer || playing || played;
    if (!offer) return;
    const names = offer.sides.map((side) => side.name).join(" v ");
    const inPlay = !s.outcome && s.phase && !["setup", "game_over"].includes(s.phase);
    document.getElementById("match-offer").textContent =
      `${offer.event}, round ${offer.round}: ${names} (${offer.sides[0].name} takes the first side)` +
      (inPlay ? ". The game on the table is still in play: starting the match closes it." : ".");
    const button = document.getElementById("start-match");
    button.onclick = () => R.send("setup_game", { match: offer }, button);
  }

  S.onRender(function (t) {
    matchOffer(t);
    const s = t.state || {};
    // A table with physical decks: the referee names each card the table draws.
    document.getElementById("draw-card").hidden = s.decks !== "physical";
    // Pending decision of the rules engine, with its legal options.
    const card = document.getElementById("decision-card");
    const options = document.getElementById("decision-options");
    clear(options);
    card.hidden = !s.pending;
    card.dataset.decision = s.pending ? s.pending.id : "";
    if (s.pending) {
      document.getElementById("decision-prompt").textContent =
        `${s.pending.character ? S.characterName(s.pending.character) + ": " : ""}${s.pending.prompt || s.pending.kind}`;
      for (const o of s.pending.options || []) {
        const b = S.el("button", { class: "big choice", type: "button", "data-option": o.id }, o.label || o.id);
        b.addEventListener("click", () => R.send("answer", { decision: s.pending.id, option: o.id }, b));
        options.appendChild(b);
      }
    }
    // Expected next shot and shot-by-shot progress of the declared action.
    const exp = s.expected_shot;
    document.getElementById("expected-shot").textContent = exp
      ? `Next: ${S.characterName(exp.character)} — ${exp.shot.replace(/_/g, " ")}, ${flickWhat(exp)}`
      : (s.pending ? "Waiting for the decision above." : "No shot expected.");
    const progress = document.getElementById("shot-progress");
    clear(progress);
    const declared = (s.turn && s.turn.declared) || null;
    const steps = (declared && declared.shots) ||
      // Without the declared sequence, the expected shot's index still tells how far the turn has come.
      (exp ? Array.from({ length: exp.index + 1 }, (_, i) => ({ shot: i === exp.index ? exp.shot : `shot ${i + 1}` })) : []);
    for (const [i, shot] of steps.entries()) {
      const state = shot.status || (exp && exp.index === i ? "next" : (exp && i < exp.index ? "done" : "pending"));
      const joint = i > 0 && shot.connector ? `${CONNECTOR[shot.connector] || shot.connector} ` : "";
      progress.appendChild(S.el("li", { class: "step " + state }, `${joint}${shot.shot} · ${state}`));
    }
    document.getElementById("skip-shot").disabled = !exp || Boolean(s.paused);
    document.getElementById("end-turn").disabled = !(s.turn && s.turn.character) || Boolean(s.paused) || Boolean(s.pending);
    // Legal actions: the snapshot's list when the rules give one, else "declare" for each character of the
    // acting side that may still act (heroes act in any order; an Or card then asks which alternative).
    const actions = document.getElementById("actions");
    clear(actions);
    const turn = s.turn || {};
    const busy = Boolean(s.pending) || Boolean(s.paused) || Boolean(exp);
    document.getElementById("actions-for").textContent = turn.character ? `for ${S.characterName(turn.character)}` : (turn.side ? `for ${W.side(turn.side)}` : "");
    let buttons = [];
    if (Array.isArray(s.actions)) {
      buttons = s.actions.map((a) => ({ key: a.id, label: a.label || a.id, shots: a.shots,
        args: Object.assign({ character: a.character || turn.character }, a.alternative !== undefined ? { alternative: a.alternative } : { action: a.id }) }));
    } else if (s.phase === "battle" && !(turn.declared)) {
      const side = (s.characters || []).filter((c) => c.side === turn.side && c.alive !== false && !c.acted &&
        (!turn.character || c.id === turn.character));
      buttons = side.map((c) => ({ key: c.id, label: `${c.name} acts`, shots: null, args: { character: c.id } }));
    }
    for (const a of buttons) {
      const b = S.el("button", { class: "big action", type: "button", "data-action": a.key });
      b.appendChild(S.el("span", { class: "label" }, a.label));
      if (a.shots && a.shots.length) b.appendChild(S.el("span", { class: "shots" }, shotLine(a.shots)));
      b.disabled = busy;
      b.addEventListener("click", () => R.send("declare", a.args, b));
      actions.appendChild(b);
    }
    // Between battles the referee moves the party on: the next Room card, then the battle once pieces are down;
    // after the last room, out of the catacomb (the game ends); after the end, the next game.
    const flow = nextStep(s);
    if (flow) {
      const b = S.el("button", { class: "big action" + (flow.command === "new_game" ? " next-game" : ""), type: "button", "data-action": flow.command });
      b.appendChild(S.el("span", { class: "label" }, flow.label));
      if (flow.hint) b.appendChild(S.el("span", { class: "shots" }, flow.hint));
      b.disabled = Boolean(s.paused);
      b.addEventListener("click", () => R.send(flow.command, {}, b));
      actions.appendChild(b);
      buttons.push(flow);
    }
    if (!buttons.length) actions.appendChild(S.el("p", { class: "muted" }, "No actions to declare right now."));
  });

  function nextStep(s) {
    if (s.result || s.outcome || s.phase === "game_over") {
      return { command: "new_game", label: "Start the next game", hint: "same heroes and rooms; this game's result stays in the log" };
    }
    if (s.pending || !["setup", "resolution", "special_room"].includes(s.phase)) return null;
    if (s.phase === "setup" && s.room) return { command: "start_battle", label: "Pieces placed: start the battle" };
    const left = s.table && s.table.rooms_left;
    if (left === 0) return { command: "enter_room", label: "Leave the catacomb: end the game", hint: "no Room cards are left" };
    return { command: "enter_room", label: "Flip the next Room card", hint: left ? `${left} left` : "" };
  }

  // What to flick, in words: the character's own disc, or a ranged piece put down for the shot.
  function flickWhat(exp) {
    if (exp.ranged) return "with a ranged piece";
    if (exp.piece && exp.piece !== exp.character) return `flick ${S.characterName(exp.piece)}'s disc`;
    return "flick its disc";
  }

  function currentCharacter() {
    const s = S.table.state || {};
    const who = (s.expected_shot && s.expected_shot.character) || (s.turn && s.turn.character);
    return who ? { character: who } : {};
  }

  // The piece to flick next glows on the board.
  S.boardOptions = (t) => {
    const exp = t.state && t.state.expected_shot;
    return { animate: true, highlight: new Set(exp ? [exp.disc || exp.piece] : []) };
  };

  document.addEventListener("DOMContentLoaded", () => {
    const skip = document.getElementById("skip-shot"), end = document.getElementById("end-turn");
    skip.addEventListener("click", () => R.send("skip_shot", currentCharacter(), skip));
    end.addEventListener("click", () => R.send("end_turn", currentCharacter(), end));
    document.getElementById("draw-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const form = e.target;
      const cards = form.cards.value.split(",").map((c) => c.trim()).filter((c) => c);
      R.send("draw", { deck: form.deck.value, cards }, e.submitter || form);
    });
  });
})();

// Words for people: what the table says to spectators and players, in the game's own terms. Rule citations,
// record numbers and ids are kept apart for the referee's detail view.
"use strict";
window.SmartmatWords = (function () {
  // "(catacombs-3e-reference.txt: Battle Phase: Taking Damage)", "(RULINGS.md 5)": the rules cite the section
  // that decided; people read the decision, the referee may open the rule.
  const CITATION = /\s*\(((?:[\w-]+\.(?:txt|md))(?::[^()]*|\s+\d+)?)\)/g;

  function split(text) {
    const rules = [];
    const plain = String(text || "").replace(CITATION, (_, rule) => { rules.push(rule); return ""; });
    return { text: plain.trim(), rules };
  }

  const plain = (text) => split(text).text;

  // Where the referee reads a cited rule (web_dashboard/table/rule_pages.py): "RULINGS.md 5" → the rulings page at
  // ruling 5; "<rulebook file>: <section>" → that rulebook, which the dashboard opens at the section's heading.
  function ruleHref(rule) {
    const ruling = /^RULINGS\.md(?:\s+(\d+))?$/.exec(rule);
    if (ruling) return "/rules/rulings" + (ruling[1] ? `#ruling-${ruling[1]}` : "");
    const book = /^([\w-]+\.(?:txt|md))(?::\s*(.*))?$/.exec(rule);
    if (!book) return null;
    return `/rules/book/${book[1]}` + (book[2] ? `?section=${encodeURIComponent(book[2].trim())}` : "");
  }

  const SIDES = { heroes: "the heroes", overseer: "the Overseer", neutral: "nobody" };
  const side = (s) => SIDES[s] || s || "—";

  // What the table waits for now, in words: "Room cleared — collect gold", "Next: flip a Room card".
  function moment(state) {
    const s = state || {};
    const t = s.table || {};
    const left = t.rooms_left;
    const nextRoom = left === 0 ? "Next: leave the catacomb (no Room cards left)" : "Next: flip a Room card";
    if (s.result || s.phase === "game_over") return "Game over";
    if (s.paused || t.paused) return "Paused by the referee";
    if (t.pending_shot) return "The referee is checking the last shot";
    if (t.attributing) return "The mat is reading the last shot";
    if (s.pending) return "Waiting for a choice";
    switch (s.phase) {
      case "no_game": return "Waiting for the next game";
      case "setup": return s.room ? "Put the pieces on the mat" : "Next: flip the first Room card";
      case "battle": {
        const exp = s.expected_shot;
        if (exp) return `Next shot: ${exp.shot.replace(/_/g, " ")}`;
        return s.turn && s.turn.character ? "Declaring an action" : `Waiting for ${side(s.turn && s.turn.side)} to declare`;
      }
      case "resolution": return `Room cleared — collect gold · ${nextRoom}`;
      case "special_room": return `${(s.room && s.room.name) || "A special room"} · ${nextRoom}`;
      default: return s.phase ? s.phase.replace(/_/g, " ") : "";
    }
  }

  // The shot's consequences as short phrases, from the rules' own events of the record that resolved it:
  // "−1 Orc 2", "Orc 2 destroyed", "Elani: no friendly fire"; a hit the rules left without any effect is
  // named too ("Orc 2: no damage from a rush"), so a hit never seems to have been forgotten.
  function shotStory(shot, events, nameOf) {
    if (!shot) return [];
    const seq = shot.resolved_seq !== undefined ? shot.resolved_seq
      : (shot.auto_apply && shot.shot_seq !== undefined ? shot.shot_seq + 1 : null);
    if (seq === null || shot.undone || shot.set_aside) return [];
    const mine = events.filter((e) => String(e.id || "").split(".")[0] === String(seq));
    const phrases = [];
    // A shot that clears a room also pays out gold and sends discs back: that bookkeeping goes into
    // ``phrases.details`` (shown one tap away), and the line itself says what the shot did.
    const details = [];
    phrases.details = details;
    const BOOKKEEPING = ["gold_changed", "discs_returned", "monster_card_discarded", "room_cleared", "gold_paid"];
    const named = new Set();
    for (const e of mine) {
      const who = e.name || (e.character ? nameOf(e.character) : "");
      if (e.character) named.add(e.character);
      if (e.type === "damaged") phrases.push(`−${e.amount} ${who}`);
      else if (e.type === "destroyed") phrases.push(`${who} destroyed`);
      else if (e.type === "hero_died") phrases.push(`${who} dies`);
      else if (e.type === "hit_ignored") phrases.push(`${who}: ${e.reason || plain(e.said || e.text)}`);
      else if (e.type === "healed") phrases.push(`+${e.amount} ${who}`);
      else if (e.type === "gold_changed") details.push(`${who} ${e.amount >= 0 ? "+" : "−"}${Math.abs(e.amount)} gold`);
      else if (e.type === "room_cleared") { phrases.push("room cleared"); details.push(plain(e.said || e.text)); }
      else if (BOOKKEEPING.includes(e.type) || /gold|disc/i.test(e.type)) details.push(plain(e.said || e.text));
      else if (!["shot_resolved", "turn_ended", "side_to_act", "round_started"].includes(e.type)) phrases.push(plain(e.said || e.text));
    }
    const pick = chosenReading(shot);
    const shotName = (shot.declaration && shot.declaration.shot) || shot.shot || "shot";
    const hits = shot.confirmed_hits || (pick && (pick.hit_characters || pick.direct_hits)) || [];
    for (const id of hits) {
      if (!named.has(id)) phrases.push(`${nameOf(id)}: no damage from ${article(shotName)} ${shotName.replace(/_/g, " ")}`);
    }
    return phrases;
  }

  function article(word) { return /^[aeiou]/i.test(word) ? "an" : "a"; }

  function chosenReading(shot) {
    const list = (shot && shot.candidates) || [];
    return list[Number.isInteger(shot.chosen) ? shot.chosen : 0];
  }

  // A command's answer for the referee: what happened, never the log's record number.
  const DONE = {
    declare: "Declared", answer: "Answered", skip_shot: "Shot skipped", end_turn: "Turn ended",
    confirm_hits: "Hits confirmed", manual_shot: "Shot recorded", correct: "Corrected", undo: "Taken back",
    pause: "Game paused", resume: "Game resumed", rescan: "The mat is scanning", enter_room: "Room card flipped",
    start_battle: "Battle started", dismiss_shot: "Shot set aside", bind: "Disc changed", new_game: "New game started",
    use_service: "Done", play_card: "Card played", draw: "Card recorded", gain_rage: "Rage gained",
    setup_game: "The new game is on the table", assign_tracker: "Tracker assigned",
    enrol_start: "Enrolling: put the discs on the mat", enrol_finish: "Discs enrolled", enrol_cancel: "Enrolling stopped",
    enrol_forget: "Disc set forgotten", calibrate_start: "Calibration started", calibrate_flicks: "Flicks recorded",
    calibrate_skip: "Step skipped", calibrate_finish: "Calibration saved", calibrate_cancel: "Calibration stopped",
  };
  // A refusal for people: no citation (the rule is offered apart), no command name in front, no value as Python
  // prints it ("['elani']" → "elani").
  function refusal(text, command) {
    let out = plain(text);
    if (command && out.startsWith(command + ": ")) out = out.slice(command.length + 2);
    out = out.replace(/\[((?:'[^']*'(?:,\s*)?)*)\]/g, (_, items) => items.replace(/'/g, ""));
    // A side of the set-up by its place, as the wizard lists them: "sides[1]" → "the second side".
    out = out.replace(/\bsides\[(\d)\]/g, (_, i) => `the ${["first", "second", "third", "fourth"][Number(i)] || "next"} side`);
    // A check's refusal names the argument as code does and ends on the value it got: "mat_confirmed must be
    // true, once … checked, got False" → "mat confirmed must be true, once … checked".
    out = out.replace(/,? got (?:None|True|False|-?\d+(?:\.\d+)?|'[^']*'|\[[^\]]*\]|\{[^}]*\})\s*$/, "");
    out = out.replace(/\b([a-z]+(?:_[a-z]+)+)\b/g, (name) => name.replace(/_/g, " "));
    return out.replace(/'([^']*)'/g, "$1").replace(/\bNone\b/g, "nothing");
  }
  const done = (command) => DONE[command] || "Done";

  return { split, plain, ruleHref, side, moment, shotStory, chosenReading, done, refusal };
})();

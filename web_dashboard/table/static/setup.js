// The referee's set-up pages: the guided calibration. Reads the table's state (its "calibration" block)
// from the dashboard's view, sends the calibrate_* commands with the session's CSRF token.
"use strict";
(function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";

  const send = window.smartmatSetup.commandSender(refresh);  // refresh: a hoisted declaration below

  function figures(list, data) {
    list.textContent = "";
    const flicks = data.figures && data.figures.flicks;
    const touches = data.figures && data.figures.touches;
    const rows = [
      ["Source", data.source],
      ["Shots learnt from", data.shots],
      ["Shots the referee answered", data.labelled_shots !== undefined ? `${data.labelled_shots} (the table's first reading was right in ${data.labelled_agreed})` : undefined],
      ["Disc-on-disc loudness", data.disc_loudness_x !== undefined ? `× ${data.disc_loudness_x} (from ${data.disc_loudness_contacts} contacts)` : undefined],
      ["Sound speed", data.sound_speed_m_per_s !== undefined ? `${data.sound_speed_m_per_s} m/s ± ${(100 * data.sound_speed_uncertainty).toFixed(1)} %` : undefined],
      ["Settled", data.settled === undefined ? undefined : (data.settled ? "yes" : `no: ${(data.unsettled_because || []).join("; ")}`)],
      ["Calibrated", data.age_text],
      ["Timing jitter", data.figures ? `${data.figures.timing_jitter_us} µs` : undefined],
      ["Taps heard", data.figures ? `${data.figures.taps_heard} of ${data.figures.taps}` : undefined],
      ["Sliding friction", flicks ? `${flicks.sliding_friction} ± ${(100 * flicks.friction_uncertainty).toFixed(0)} %` : undefined],
      ["Wall bounce", flicks ? `${flicks.wall_bounce} ± ${(100 * flicks.wall_bounce_uncertainty).toFixed(0)} %` : undefined],
      ["Flicks read", flicks ? `${flicks.flicks_read} of ${flicks.flicks}` : undefined],
      ["Touch loudness", touches ? `${touches.touch_loudness} × nominal ± ${(100 * touches.touch_loudness_uncertainty).toFixed(0)} %, a soft touch heard within ${(touches.soft_touch_heard_within_mm / 10).toFixed(0)} cm` : undefined],
      ["Touches read", touches ? `${touches.touches_read} of ${touches.touches}` : undefined],
    ];
    for (const [name, value] of rows) {
      if (value === undefined || value === null) continue;
      const dt = document.createElement("dt"); dt.textContent = name;
      const dd = document.createElement("dd"); dd.textContent = String(value);
      dd.dataset.figure = name;
      list.append(dt, dd);
    }
  }

  function drawMat(svg, view, mat) {
    const width = (mat && mat.width_mm) || 860, height = (mat && mat.height_mm) || 610;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.textContent = "";
    for (const point of view.points || []) {
      const done = point.number < (view.point ? view.point.number : 99) && view.round === view.rounds;
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("cx", point.x_mm); circle.setAttribute("cy", point.y_mm); circle.setAttribute("r", 30);
      circle.setAttribute("class", view.point && point.number === view.point.number ? "current" : (done ? "done" : ""));
      circle.dataset.point = point.number;
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", point.x_mm); label.setAttribute("y", point.y_mm); label.textContent = point.number;
      svg.append(circle, label);
    }
  }

  function drawFlick(svg, spot, mat) {
    const width = (mat && mat.width_mm) || 860, height = (mat && mat.height_mm) || 610;
    svg.setAttribute("viewBox", `-60 -60 ${width + 120} ${height + 120}`);
    svg.textContent = "";
    if (!spot) return;
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", spot.x_mm); line.setAttribute("y1", spot.y_mm);
    line.setAttribute("x2", spot.aim_x_mm); line.setAttribute("y2", spot.aim_y_mm);
    line.setAttribute("class", "aim"); line.setAttribute("stroke", "#f5b041"); line.setAttribute("stroke-width", 6);
    const circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", spot.x_mm); circle.setAttribute("cy", spot.y_mm); circle.setAttribute("r", 20);
    circle.setAttribute("class", "current"); circle.dataset.spot = spot.number;
    svg.append(line, circle);
  }

  function render(state) {
    const view = state && state.calibration;
    if (!view) { $("cal-status").textContent = "The table has not said how it is calibrated yet."; return; }
    const status = view.status || {};
    $("cal-status").textContent = status.text || "";
    $("cal-status").className = status.ok ? "ok" : "warn";
    figures($("cal-figures"), status);
    const advice = $("cal-advice"); advice.textContent = "";
    const outcome = view.outcome;
    for (const line of ((outcome && outcome.figures && outcome.figures.advice) || [])) {
      const li = document.createElement("li"); li.textContent = line; advice.append(li);
    }
    const flicking = view.flicks;
    // The simulated mat's built-in constants have nothing to calibrate: no Start button for them.
    const nothingToCalibrate = status.source === "built-in constants";
    $("cal-start-card").classList.toggle("hidden", !!view.active || nothingToCalibrate);
    $("cal-run-card").classList.toggle("hidden", !view.active || !!flicking);
    $("cal-flick-card").classList.toggle("hidden", !flicking);
    if (flicking) {
      const touches = flicking.kind === "touches";
      $("cal-flick-kind").textContent = touches ? "Touch" : "Flick";
      $("cal-flick-skip").textContent = touches ? "Skip this touch" : "Skip this flick";
      $("cal-flick-number").textContent = flicking.spot ? `${flicking.spot.number} of ${flicking.total}` : "– all made";
      $("cal-flick-progress").textContent = `${flicking.read} read of ${flicking.done} made`;
      const last = flicking.last;
      $("cal-last-flick").textContent = last ? `${last.ok ? "✔" : "✘"} ${last.text}` : "";
      drawFlick($("cal-flick-mat"), flicking.spot, JSON.parse(body.dataset.mat || "{}"));
    } else if (view.active) {
      $("cal-point").textContent = view.point ? String(view.point.number) : "– all done";
      $("cal-progress").textContent = `${view.taps_done} of ${view.taps_total} taps (round ${view.round} of ${view.rounds})`;
      $("cal-last-tap").textContent = view.last_tap ? `Last tap, point ${view.last_tap.point}: heard by ${view.last_tap.sensors} piezos` : "";
      const walls = view.mat && view.mat.walls;
      $("cal-mat-text").textContent = `Walls: ${typeof walls === "string" ? walls : `${walls.length} stretches as in the table file`}; fixed obstacles: ${view.mat ? view.mat.obstacles : 0}.`;
      drawMat($("cal-mat"), view, JSON.parse(body.dataset.mat || "{}"));
    }
  }

  async function refresh() {
    try {
      const response = await fetch(body.dataset.viewUrl, { credentials: "same-origin" });
      if (response.ok) render((await response.json()).state);
    } catch (err) { /* the next poll tries again */ }
  }

  $("cal-start").addEventListener("click", () => send("calibrate_start", { rounds: Number($("cal-rounds").value) }, $("cal-start")));
  $("cal-skip").addEventListener("click", () => send("calibrate_skip", {}, $("cal-skip")));
  $("cal-cancel").addEventListener("click", () => send("calibrate_cancel", {}, $("cal-cancel")));
  $("cal-finish").addEventListener("click", () => send("calibrate_finish", { mat_confirmed: $("cal-mat-confirmed").checked }, $("cal-finish")));
  $("cal-flicks-start").addEventListener("click", () => send("calibrate_flicks", {}, $("cal-flicks-start")));
  $("cal-touches-start").addEventListener("click", () => send("calibrate_touches", {}, $("cal-touches-start")));
  $("cal-flick-skip").addEventListener("click", () => send("calibrate_skip", {}, $("cal-flick-skip")));
  $("cal-flick-cancel").addEventListener("click", () => send("calibrate_cancel", {}, $("cal-flick-cancel")));
  $("cal-flicks-finish").addEventListener("click", () => send("calibrate_finish", { mat_confirmed: $("cal-flicks-confirmed").checked }, $("cal-flicks-finish")));
  refresh();
  setInterval(refresh, 700);
})();

// The calibrate page's camera step (docs/camera.md, "The camera step"): asks the table's camera for a picture
// (the mat's outline, each disc circled and named), then shows it with the mapping's error in millimetres and,
// in words, whether every enrolled disc is seen or which are missing. A table without a camera says so.
"use strict";
(function () {
  const card = document.getElementById("cam-card");
  if (!card) return;
  const base = card.dataset.base;
  const image = document.getElementById("cam-image");
  const status = document.getElementById("cam-status");
  const error = document.getElementById("cam-error");
  const discs = document.getElementById("cam-discs");
  const button = document.getElementById("cam-refresh");
  let shownAge = null;

  function describe(state) {
    const view = state.view;
    if (!state.camera_link) {
      status.textContent = "This table has no camera connection: the camera step does not apply.";
      return;
    }
    if (!view) {
      status.textContent = state.asked_s_ago !== null && state.asked_s_ago > 5
        ? "No picture from the camera: this table has no camera, or its camera process is not running."
        : "Asking the camera for a picture…";
      return;
    }
    status.textContent = view.mapped
      ? `The camera sees the mat (${view.fiducials_seen} corner markers found).`
      : "The camera cannot map the mat" + (view.problem ? `: ${view.problem}` : ".");
    error.textContent = view.mapping_error_mm === null ? "Mapping error: not known (the mat is not mapped)."
      : `Mapping error: ${view.mapping_error_mm.toFixed(2)} mm.`;
    const names = view.names || {};
    discs.textContent = view.missing.length === 0 ? "Every enrolled disc is seen."
      : `Not seen: ${view.missing.map((d) => names[d] || d).join(", ")}.`;
    discs.className = view.missing.length === 0 ? "result ok" : "result refused";
    if (shownAge === null || state.age_s < shownAge) {
      image.src = `${base}/view.jpg?t=${Date.now()}`;
      image.hidden = false;
    }
    shownAge = state.age_s;
  }

  async function poll() {
    try {
      const response = await fetch(`${base}/view.json`, { credentials: "same-origin" });
      if (response.ok) describe(await response.json());
    } catch (err) {
      status.textContent = "No connection to the dashboard.";
    }
  }

  async function ask() {
    button.disabled = true;
    shownAge = null;
    try {
      const response = await fetch(`${base}/ask`, {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRF-Token": document.body.dataset.csrf },
      });
      if (!response.ok) status.textContent = "Could not ask the camera: not connected to the table's broker.";
    } catch (err) {
      status.textContent = "No connection to the dashboard.";
    } finally {
      button.disabled = false;
    }
    poll();
  }

  button.addEventListener("click", ask);
  (async function start() {  // a table without a camera link is told so, and nothing is asked
    try {
      const response = await fetch(`${base}/view.json`, { credentials: "same-origin" });
      const state = response.ok ? await response.json() : null;
      if (state && !state.camera_link) {
        describe(state);
        button.hidden = true;
        return;
      }
    } catch (err) { /* asked below; the poll reports a lost connection */ }
    ask();
    setInterval(poll, 1000);
  })();
})();

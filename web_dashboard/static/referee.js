// Commands from the referee pages: POST /api/command with the session's CSRF token; show the daemon's answer.
"use strict";
window.SmartmatReferee = (function () {
  const body = document.body;
  const log = [];

  function show(result) {
    const out = document.getElementById("command-result");
    if (out) {
      out.textContent = result.ok ? `✔ ${result.command} accepted${result.seq !== null && result.seq !== undefined ? ` (log #${result.seq})` : ""}`
        : `✘ ${result.command || "command"}: ${result.error}`;
      out.className = "result " + (result.ok ? "ok" : "refused");
    }
    const list = document.getElementById("command-log");
    if (list) {
      list.insertBefore(window.Smartmat.el("li", { class: result.ok ? "ok" : "refused" },
        `${result.command || "?"} ${JSON.stringify(result.args || {})} → ${result.ok ? "ok" : result.error}`), list.firstChild);
    }
  }

  async function send(command, args) {
    let result;
    try {
      const response = await fetch(body.dataset.commandUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": body.dataset.csrf },
        body: JSON.stringify({ command, args: args || {} }),
      });
      result = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
      if (response.status === 401) { window.location.href = "/login?next=" + encodeURIComponent(location.pathname); return result; }
    } catch (err) {
      result = { ok: false, error: "no connection to the dashboard" };
    }
    result.command = result.command || command;
    log.push(result);
    show(result);
    return result;
  }

  return { send };
})();

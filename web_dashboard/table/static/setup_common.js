// What the referee's set-up pages share: posting a command with the session's CSRF token and showing the
// outcome in the page's #setup-result line. Each page passes its own refresh, run after every command.
"use strict";
window.smartmatSetup = {
  commandSender(refresh) {
    const body = document.body;
    return async function send(command, args) {
      let result;
      try {
        const response = await fetch(body.dataset.commandUrl, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": body.dataset.csrf },
          body: JSON.stringify({ command, args: args || {} }),
        });
        result = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
      } catch (err) {
        result = { ok: false, error: "no connection to the dashboard" };
      }
      const out = document.getElementById("setup-result");
      const W = window.SmartmatWords;  // the answer in words, never the command's name or a Python value
      out.textContent = result.ok ? `✔ ${W.done(command)}` : `✘ Not done: ${W.refusal(result.error, command)}`;
      out.className = "result " + (result.ok ? "ok" : "refused");
      refresh();
      return result;
    };
  },
};

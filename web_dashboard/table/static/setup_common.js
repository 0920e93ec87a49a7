// What the referee's set-up pages share: posting a command with the session's CSRF token and showing the
// outcome in words right under the button that sent it (a line of its own after the button; the page's
// #setup-result line when no button is given). Each page passes its own refresh, run after every command.
"use strict";
window.smartmatSetup = {
  commandSender(refresh) {
    const body = document.body;
    function answerLine(origin) {
      if (!origin || !origin.insertAdjacentElement) return document.getElementById("setup-result");
      const next = origin.nextElementSibling;
      if (next && next.classList.contains("answer")) return next;
      const line = document.createElement("p");
      line.className = "result answer";
      line.setAttribute("role", "status");
      origin.insertAdjacentElement("afterend", line);
      return line;
    }
    return async function send(command, args, origin) {
      let result;
      const out = answerLine(origin);
      if (origin) origin.disabled = true;  // one tap, one command
      try {
        const response = await fetch(body.dataset.commandUrl, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": body.dataset.csrf },
          body: JSON.stringify({ command, args: args || {} }),
        });
        result = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
      } catch (err) {
        result = { ok: false, error: "no connection to the dashboard" };
      } finally {
        if (origin) origin.disabled = false;
      }
      const W = window.SmartmatWords;  // the answer in words, never the command's name or a Python value
      out.textContent = result.ok ? `✔ ${W.done(command)}` : `✘ Not done: ${W.refusal(result.error, command)}`;
      out.className = "result " + (result.ok ? "ok" : "refused") + (out.id === "setup-result" ? "" : " answer");
      // The page redrawn from the new state may grow above the button: the answer stays where the tap was.
      await Promise.resolve(refresh());
      if (out.id !== "setup-result") out.scrollIntoView({ block: "nearest" });
      return result;
    };
  },
};

// Commands from the referee pages: POST /api/command with the session's CSRF token. The daemon's answer is
// shown beside the control that sent it, in words; the rule a refusal cites and the log's record number are
// kept in a "rule" detail (a link to the rule's text: rulings or rulebook section) and in the command log.
"use strict";
window.SmartmatReferee = (function () {
  const body = document.body;
  const log = [];

  // The answer's place: the folded tool or the card holding the control that sent it (a status line of its
  // own, right under the control), else the page's.
  function resultLine(origin) {
    const card = origin && origin.closest ? origin.closest("details.tool, .card") : null;
    if (!card) return document.getElementById("command-result");
    let line = card.querySelector(":scope > .result");
    if (!line) {
      line = document.createElement("p");
      line.className = "result";
      line.setAttribute("role", "status");
      card.appendChild(line);
    }
    return line;
  }

  function show(result, out) {
    const W = window.SmartmatWords, S = window.Smartmat;
    const refusal = W.split(result.error || "");
    if (out) {
      while (out.firstChild) out.removeChild(out.firstChild);
      out.appendChild(document.createTextNode(result.ok ? `✔ ${W.done(result.command)}` : `✘ Not done: ${W.refusal(result.error || "", result.command)}`));
      if (!result.ok && refusal.rules.length) {
        const rule = S.el("details", { class: "rule" });
        rule.appendChild(S.el("summary", {}, "rule"));
        refusal.rules.forEach((cited, i) => {  // each citation a link to the rule's text, opened beside the console
          if (i) rule.appendChild(document.createTextNode("; "));
          const href = W.ruleHref(cited);
          rule.appendChild(href ? S.el("a", { href, target: "_blank", rel: "noopener", class: "rule-link" }, cited)
            : S.el("span", {}, cited));
        });
        out.appendChild(rule);
      }
      out.className = "result " + (result.ok ? "ok" : "refused");
      out.dataset.command = result.command || "";
    }
    const list = document.getElementById("command-log");
    if (list) {
      // The answer in words first; what was sent, as sent, under it (it wraps: a phone never scrolls sideways).
      const record = result.ok && result.seq !== null && result.seq !== undefined ? ` · log record ${result.seq}` : "";
      const li = S.el("li", { class: result.ok ? "ok" : "refused" },
        (result.ok ? `✔ ${W.done(result.command)}` : `✘ ${W.refusal(result.error || "", result.command)}`) + record);
      li.appendChild(S.el("code", { class: "sent" }, `${result.command || "?"} ${JSON.stringify(result.args || {})}`));
      list.insertBefore(li, list.firstChild);
      const count = document.getElementById("command-count");
      if (count) count.textContent = `${list.childElementCount} answer${list.childElementCount === 1 ? "" : "s"}`;
    }
  }

  async function send(command, args, origin) {
    let result;
    const out = resultLine(origin);  // found now: the page may redraw the control before the answer comes
    if (origin && origin.disabled !== undefined) origin.disabled = true;  // one tap, one command
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
    } finally {
      if (origin && origin.disabled !== undefined) origin.disabled = false;
      window.Smartmat.render("command");  // let the page decide again what may be tapped
    }
    result.command = result.command || command;
    result.args = result.args || args;
    log.push(result);
    show(result, out);
    return result;
  }

  return { send };
})();

// rulebook table page: what just happened. Bots move at once, so whole turns of the others
// pass between two of a person's decisions; this shows, right under the seat's options, the
// log lines since its previous decision (its own move's, then everybody else's, in their
// colours), and marks on the board what changed since then (class `changed`: the field's row,
// and the card or row of slots in it, until the seat's next decision). table.js tells it each message
// it draws (the "rulebook:state" event). No framework, no build step; a spectator's page has
// no seat, so no list.
(function () {
  "use strict";
  if (typeof document === "undefined") return;
  const app = document.getElementById("app");
  if (!app || app.dataset.mode !== "table" || !app.dataset.token) return;
  const options = document.getElementById("options");
  if (!options) return;
  const box = document.createElement("section");
  box.className = "recent";
  box.id = "recent";
  box.hidden = true;
  box.setAttribute("aria-label", "What just happened");
  box.innerHTML = '<h3>Since your last move</h3><ol class="log recent-log"></ol>';
  options.after(box);
  const list = box.querySelector("ol");
  const head = box.querySelector("h3");

  // what a drawn thing shows: its words, and the words of its circles and slots (a circle
  // or a slot filled), not the marks this page adds (acts.js)
  const shown = (el) => el.textContent + "|" +
    [...el.querySelectorAll(".occ, .slot")].map((x) => x.title + (x.classList.contains("full") ? "+" : "-")).join(",");
  const entries = () => [...document.querySelectorAll("#log li:not(.round-head)")];
  // each drawn thing on the board by where it is: zone, field, and its key where it has one
  function snapshot() {
    const out = new Map();
    for (const zone of document.querySelectorAll("#board .zone")) {
      const where = zone.dataset.seat !== undefined ? "seat " + zone.dataset.seat
        : (zone.querySelector("h3") || {}).textContent;
      for (const row of zone.querySelectorAll("tr[data-field]")) {
        const at = where + "|" + row.dataset.field;
        out.set(at, [row, shown(row)]);
        for (const thing of row.querySelectorAll("[data-key]")) {
          const n = (out.get(at + "|" + thing.dataset.key + "#") || 0) + 1;
          out.set(at + "|" + thing.dataset.key + "#", n);
          out.set(at + "|" + thing.dataset.key + "|" + n, [thing, shown(thing)]);
        }
      }
    }
    return out;
  }

  let seen = null;        // the board when the seat last had a decision (what it saw)
  let from = null;        // the number of log lines then
  let lastDecision = null;
  let lines = [];         // what the list shows (kept across redraws of one decision)
  let changed = new Set();

  function mark(now) {
    for (const [at, value] of now) {
      if (!Array.isArray(value)) continue;
      if (changed.has(at)) value[0].classList.add("changed");
    }
    const zones = new Set([...document.querySelectorAll("#board .changed")].map((el) => el.closest(".zone")));
    for (const zone of zones) if (zone) zone.classList.add("changed-zone");
  }

  app.addEventListener("rulebook:state", (ev) => {
    const msg = ev.detail;
    const mine = msg.seat !== null && msg.to_move === msg.seat && !msg.over;
    const now = snapshot();
    if (mine && msg.decision !== lastDecision) {
      const all = entries();
      // a page just opened knows no earlier decision: the latest lines, nothing marked
      head.textContent = from === null ? "Latest moves" : "Since your last move";
      lines = all.slice(from === null ? -5 : from).map((li) => li.cloneNode(true));
      if (from !== null) {
        changed = new Set();
        for (const [at, value] of now) {
          if (!Array.isArray(value)) continue;
          const before = seen.get(at);
          if (!before || before[1] !== value[1]) changed.add(at);
        }
      }
      seen = now;
      from = all.length;
      lastDecision = msg.decision;
    }
    if (!mine) changed = new Set();  // the seat moved: its highlights are seen
    mark(now);
    list.replaceChildren(...lines.map((li) => li.cloneNode(true)));
    box.hidden = !mine || !lines.length;
    list.scrollTop = list.scrollHeight;  // the newest line in view
  });
})();

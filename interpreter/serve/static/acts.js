// rulebook table page: the board acts. Where the ruleset says which drawn thing an option
// family stands for (`presentation: acts:`, the message's `acts`: family -> [field, part]), the
// card, piece or row of the seat's options is marked on the board, and a click on it (or
// Enter, Space) presses that option's button: a plain option, or one pick of a gesture. A
// thing several options stand for takes the person to those options instead. The zones
// holding such things are marked `acting`, so that style.css keeps them in view next to the
// seat's own area. No framework, no build step.
(function () {
  "use strict";
  if (typeof document === "undefined") return;
  const app = document.getElementById("app");
  if (!app || app.dataset.mode !== "table") return;
  const quote = (s) => String(s).replace(/["\\]/g, "\\$&");

  // the drawn thing an option stands for: its field's row, the thing keyed by the id's part
  function targets(msg, option) {
    const parts = option.split(":");
    const act = (msg.acts || {})[parts[0]];
    if (!act || parts.length <= act[1]) return [];
    const row = 'tr[data-field="' + quote(act[0]) + '"] ';
    const own = "#board .zone.own " + row, shared = "#board .zones " + row;
    const key = '[data-key="' + quote(parts[act[1]]) + '"]';
    // the seat's own thing (in its own area), else the shared one
    const mine = document.querySelectorAll(own + key);
    return [...(mine.length ? mine : document.querySelectorAll(shared + key))];
  }

  app.addEventListener("rulebook:state", (ev) => {
    const msg = ev.detail;
    const byThing = new Map();
    for (const opt of msg.options || []) {
      const button = document.querySelector('#options button[data-option="' + quote(opt.id) + '"]');
      if (!button) continue;
      for (const thing of targets(msg, opt.id)) {
        if (!byThing.has(thing)) byThing.set(thing, []);
        byThing.get(thing).push([opt, button]);
      }
    }
    for (const [thing, options] of byThing) {
      thing.classList.add("act");
      thing.tabIndex = 0;
      thing.setAttribute("role", "button");
      const zone = thing.closest(".zone");
      if (zone) zone.classList.add("acting");
      const words = options.map(([opt]) => opt.text).join(" / ");
      thing.setAttribute("aria-label", words);
      const summary = thing.querySelector("summary");
      if (summary) summary.title = words + "\n" + summary.title;
      else thing.title = words;
      const act = (e) => {
        e.preventDefault();  // a card's own tap would open its text instead
        if (options.length === 1) { if (!options[0][1].disabled) options[0][1].click(); return; }
        // several options stand for it: they are shown, the first one focused
        for (const [, button] of options) button.classList.add("offered");
        options[0][1].scrollIntoView({block: "nearest"});
        options[0][1].focus();
      };
      thing.addEventListener("click", act);
      thing.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act(e); });
    }
  });
})();

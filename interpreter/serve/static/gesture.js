// rulebook table page: a gesture (docs/serve.md, "Gestures"), a run of one step's decisions
// that the ruleset groups, drawn as one move: each option with how often it is picked, a
// counter "2 of 4", and one button that sends the whole run as a list of option ids.
// An assignment starts from the server's proposal (the seat's last placement there); a
// selection starts empty. table.js calls rulebookGesture(box, msg, sendMany) and draws the
// options this returns none of.
(function () {
  "use strict";
  if (typeof window === "undefined") return;

  function rulebookGesture(box, msg, sendMany) {
    const gesture = msg.gesture;
    const most = new Map(gesture.most);
    const count = new Map(gesture.most.map(([id]) => [id, 0]));
    for (const id of gesture.proposal || []) count.set(id, (count.get(id) || 0) + 1);
    const assign = gesture.kind === "assign";
    const fs = document.createElement("fieldset");
    fs.className = "family gesture";
    const legend = document.createElement("legend");
    legend.textContent = gesture.text;
    fs.appendChild(legend);
    const counter = document.createElement("p");
    counter.className = "gesture-count";
    counter.id = "gesture-count";
    counter.setAttribute("aria-live", "polite");
    fs.appendChild(counter);
    const confirm = document.createElement("button");
    confirm.type = "button";
    confirm.className = "option gesture-confirm";
    confirm.id = "gesture-confirm";
    const rows = [];
    const total = () => [...count.values()].reduce((a, b) => a + b, 0);

    function refresh() {
      const n = total();
      counter.textContent = n + " of " + gesture.picks + (assign ? " placed" : " chosen");
      confirm.textContent = gesture.confirm + " (" + n + " of " + gesture.picks + ")";
      confirm.disabled = n !== gesture.picks;
      fs.dataset.left = String(gesture.picks - n);  // picks still to make (for scripts too)
      for (const row of rows) row();
    }

    // a long run is a grid of short faces on a phone, as table.js draws a long list
    const mine = (msg.options || []).filter((opt) => most.has(opt.id));
    const lead = mine.length >= 4 && window.rulebookLead
      ? window.rulebookLead(mine.map((opt) => opt.text)) : "";
    if (mine.length >= 4) fs.classList.add("many");
    for (const opt of mine) {
      const line = document.createElement("div");
      line.className = "gesture-line";
      const pick = document.createElement("button");
      pick.type = "button";
      pick.className = "option gesture-pick";
      pick.dataset.option = opt.id;
      pick.dataset.most = String(most.get(opt.id));
      if (opt.doc) pick.title = opt.doc;
      const less = document.createElement("button");
      less.type = "button";
      less.className = "gesture-less";
      less.textContent = "−";
      less.setAttribute("aria-label", "one less: " + opt.text);
      // a press adds one (up to the most allowed, or the picks left); a selection's
      // option picked as often as it may be is taken back by the next press
      pick.onclick = () => {
        const k = count.get(opt.id);
        if (k < most.get(opt.id) && total() < gesture.picks) count.set(opt.id, k + 1);
        else if (!assign || k >= most.get(opt.id)) count.set(opt.id, 0);
        refresh();
      };
      less.onclick = () => { count.set(opt.id, Math.max(0, count.get(opt.id) - 1)); refresh(); };
      rows.push(() => {
        const k = count.get(opt.id);
        const text = opt.text + (k ? " · " + k + (most.get(opt.id) > 1 ? " of " + most.get(opt.id) : "") : "");
        if (window.rulebookFace) window.rulebookFace(pick, text, lead);
        else pick.textContent = text;
        pick.setAttribute("aria-pressed", String(k > 0));
        pick.dataset.count = String(k);
        pick.classList.toggle("picked", k > 0);
        less.disabled = k === 0;
      });
      line.append(pick, less);
      fs.appendChild(line);
    }
    confirm.onclick = () => {
      const picks = [];
      for (const [id, k] of count) for (let i = 0; i < k; i++) picks.push(id);
      box.querySelectorAll("button").forEach((x) => x.disabled = true);
      sendMany(picks);
    };
    fs.appendChild(confirm);
    box.appendChild(fs);
    refresh();
    return new Set(most.keys());
  }

  window.rulebookGesture = rulebookGesture;
})();

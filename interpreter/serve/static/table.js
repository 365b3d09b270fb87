// rulebook table page: draws the server's messages (board HTML, options, log, scores) and
// sends moves over the websocket. No framework, no build step.

// The body of a replay request for a save file the person opened: the file's own text, never
// parsed and written out again. A seed is a 256-bit integer, and a JS number holds integers
// exactly only up to 2**53: JSON.stringify(JSON.parse(text)) would replay another game.
// `step` is a decision number or "end" (after the last decision).
function rulebookReplayBody(saveText, step) {
  const at = step === "end" ? '"end"' : String(Number(step));
  return '{"save": ' + saveText + ', "step": ' + at + "}";
}
if (typeof module !== "undefined") module.exports = {rulebookReplayBody};  // node, for tests

(function () {
  "use strict";
  if (typeof document === "undefined") return;
  const app = document.getElementById("app");
  if (!app) return;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
  let current = null;
  const baseTitle = document.title;
  // a seat by its name (the server's `names`: a person's own, a bot's kind), else its number
  const seatName = (msg, seat) => (msg.names && msg.names[seat]) ||
    "seat " + seat + " (" + (msg.seats || [])[seat] + ")";
  // the seat a log line is about: the one whose name it starts with (the longest that fits)
  function lineSeat(msg, text) {
    let best = -1;
    (msg.names || []).forEach((name, seat) => {
      if (text.startsWith(name) && /^($|[ :'])/.test(text.slice(name.length)) &&
          (best < 0 || name.length > msg.names[best].length)) best = seat;
    });
    return best;
  }
  // a seat's colour on an element (its area, log lines and score row share it)
  function paint(el, msg, seat) {
    const colour = seat >= 0 && msg.colours ? msg.colours[seat] : "";
    if (!colour) return;
    el.classList.add("by-seat");
    el.style.setProperty("--seat", colour);
  }

  function showError(text) {
    const box = $("error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function notePractice(msg) {
    // a practice table (its creator chose the seed) says so on every page that shows it, in
    // the panel above the status (the page's own note is moved there): on a phone it follows
    // the options (style.css), so that a long list of them ends on the first screen
    if (!msg.practice) return;
    let note = $("practice");
    if (note && note.parentNode === $("panel")) return;
    if (!note) {
      note = document.createElement("p");
      note.className = "practice";
      note.id = "practice";
      note.textContent = "Practice table: its creator chose the seed, and whoever knows the " +
        "seed can know every hidden card. Play here for practice only.";
    }
    $("status").before(note);
  }

  function draw(msg, send) {
    current = msg;
    notePractice(msg);
    // a table stopped by a failing bot or rule says why, in place of the options
    if (msg.error) showError("The game stopped: " + msg.error);
    $("board").innerHTML = msg.board;
    markCards();
    foldSeats();
    const seats = msg.seats || [];
    let status;
    if (msg.over) status = "Game over";
    else if (msg.to_move === msg.seat && msg.seat !== null)
      status = "Your turn" + (msg.prompt ? ": " + msg.prompt : "") +
        (msg.answered ? " (answered in advance)" : "");
    else status = "Waiting for " + seatName(msg, msg.to_move) +
      (msg.prompt ? ": " + msg.prompt : "");
    $("status").textContent = "Round " + msg.round + " · " + status;
    // the decision number is the page's bookkeeping (sent back with a move), not a person's
    app.dataset.decision = msg.decision;
    // a tab in the background still tells its person that the table waits for them
    document.title = (status.startsWith("Your turn") ? "● Your turn · " : "") + baseTitle;
    const box = $("options");
    box.innerHTML = "";
    const groups = new Map();
    // a run of decisions the ruleset groups is drawn as one move (gesture.js), sent as a list
    const grouped = send && msg.gesture && window.rulebookGesture
      ? window.rulebookGesture(box, msg, (picks) => send(picks, msg.decision)) : new Set();
    for (const opt of msg.options || []) {
      if (grouped.has(opt.id)) continue;
      if (!groups.has(opt.group)) groups.set(opt.group, []);
      groups.get(opt.group).push(opt);
    }
    for (const [group, opts] of groups) {
      const fs = document.createElement("fieldset");
      fs.className = "family";
      fs.innerHTML = "<legend>" + esc(group) + "</legend>";
      // a long list is a grid of short faces on a phone (style.css): each option's name
      // without the words all of them start with, its preview on a second line
      const lead = opts.length >= 4 ? commonLead(opts.map((o) => o.text)) : "";
      if (opts.length >= 4) fs.classList.add("many");
      if (opts.length === 1 && opts[0].text === group) fs.classList.add("lone");
      for (const opt of opts) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "option";
        b.dataset.option = opt.id;
        face(b, opt.text, lead);
        if (opt.doc) b.title = opt.doc;
        if (msg.answered) b.disabled = true;  // the seat's answer in advance is on its way
        if (send) b.onclick = () => { box.querySelectorAll("button").forEach((x) => x.disabled = true);
                                      send(opt.id, msg.decision); };
        fs.appendChild(b);
      }
      box.appendChild(fs);
    }
    const log = $("log");
    if (!msg.log_from) { log.innerHTML = ""; log.dataset.round = ""; }
    let round = log.dataset.round === "" || log.dataset.round === undefined ? null : +log.dataset.round;
    for (const [r, text] of msg.log) {
      if (r !== round) {
        round = r;
        const h = document.createElement("li");
        h.className = "round-head";
        h.textContent = r ? "Round " + r : "Setup";
        log.appendChild(h);
      }
      const li = document.createElement("li");
      li.textContent = text;
      paint(li, msg, lineSeat(msg, text));
      log.appendChild(li);
    }
    log.dataset.round = round === null ? "" : String(round);
    log.scrollTop = log.scrollHeight;
    drawResult(msg.result, seats, msg);
    // other pieces of the page (static/undo.js) follow the messages drawn
    app.dispatchEvent(new CustomEvent("rulebook:state", {detail: msg}));
  }

  // The words every text of a list starts with (whole words, never a whole text): "Build "
  // for a builder's buildings.
  function commonLead(texts) {
    let lead = texts[0];
    for (const t of texts) { while (lead && !t.startsWith(lead)) lead = lead.slice(0, -1); }
    lead = lead.slice(0, lead.lastIndexOf(" ") + 1);
    return texts.some((t) => !t.slice(lead.length).trim()) ? "" : lead;
  }
  // An option's face: its lead words, its name, its preview (after " — "). The text reads
  // the same to a script or a screen reader (textContent, aria-label); style.css hides the
  // lead and the dash on a phone's grid.
  function face(button, text, lead) {
    const cut = text.indexOf(" — ");
    const name = cut < 0 ? text : text.slice(0, cut);
    const span = (cls, words) => {
      const s = document.createElement("span");
      s.className = cls;
      s.textContent = words;
      return s;
    };
    button.replaceChildren();
    if (lead && name.startsWith(lead)) button.append(span("o-lead", lead));
    button.append(span("o-name", name.slice(lead && name.startsWith(lead) ? lead.length : 0)));
    if (cut >= 0) {
      const detail = span("o-detail", "");
      detail.append(span("o-dash", " — "), text.slice(cut + 3));
      button.append(detail);
    }
    button.setAttribute("aria-label", text);
  }
  window.rulebookFace = face;
  window.rulebookLead = commonLead;

  // A card that another row of its zone names by a chip of the same id (the coins on a card,
  // the cards taken) says so on the card: the chip's words after the card's name ("2
  // coins"), else the row's label without the words of the cards' own label ("Cards taken"
  // under "Cards": "taken"; the card is then marked off).
  function markCards() {
    for (const zone of $("board").querySelectorAll(".zone")) {
      for (const chip of zone.querySelectorAll("tr .chip[data-key]")) {
        const row = chip.closest("tr");
        const key = '.card[data-key="' + chip.dataset.key.replace(/["\\]/g, "\\$&") + '"]';
        for (const card of zone.querySelectorAll(key)) {
          const own = card.closest("tr"), name = card.querySelector(".c-name");
          if (own === row || !name) continue;
          const said = chip.textContent.trim(), named = name.textContent.trim();
          let words = said.startsWith(named) ? said.slice(named.length).trim() : "";
          words = words.replace(/^\((.*)\)$/, "$1");
          if (!words) {
            const theirs = new Set(own.querySelector("th").textContent.toLowerCase().split(/\s+/));
            words = row.querySelector("th").textContent.split(/\s+/)
              .filter((w) => !theirs.has(w.toLowerCase())).join(" ");
            card.classList.add("marked-off");
          }
          const mark = document.createElement("span");
          mark.className = "c-mark";
          mark.textContent = words;
          card.querySelector("summary").append(mark);
        }
      }
    }
  }

  // The other seats' areas fold (a tap on the title); on a phone they start folded, below
  // the seat's own area. A person's choice holds across redraws.
  const folded = new Map();
  const narrow = window.matchMedia("(max-width: 899px)");
  function foldSeats() {
    for (const zone of $("board").querySelectorAll(".zone[data-seat]:not(.own)")) {
      const head = zone.querySelector("h3");
      if (!head) continue;
      const seat = zone.dataset.seat;
      const own = $("board").querySelector(".zone.own");  // a spectator has none: all open
      if (!folded.has(seat)) folded.set(seat, narrow.matches && own !== null);
      zone.classList.add("collapsible");
      zone.classList.toggle("collapsed", folded.get(seat));
      head.tabIndex = 0;
      head.setAttribute("role", "button");
      head.setAttribute("aria-expanded", String(!folded.get(seat)));
      const flip = () => {
        folded.set(seat, !folded.get(seat));
        zone.classList.toggle("collapsed", folded.get(seat));
        head.setAttribute("aria-expanded", String(!folded.get(seat)));
      };
      head.onclick = flip;
      head.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); flip(); }
      };
    }
  }

  // The score table: a row per seat where it fits the window, else a column per seat (a
  // phone), so that the total and the tiebreak are never off screen.
  let shownResult = null;
  function drawResult(res, seats, msg) {
    const box = $("result");
    shownResult = res ? [res, seats, msg] : null;
    if (!res) { box.innerHTML = ""; return; }
    const rows = res.rows;
    // every seat of a full tie (equal total and tiebreak) is a winner and is named
    const winners = res.winners && res.winners.length ? res.winners : [res.winner];
    const named = winners.map((w) => esc(seatName(msg || {seats: seats}, w))).join(", ");
    const ended = res.ended || res.trigger;  // the end trigger in the ruleset's words
    const tail = "<p>" + (winners.length > 1 ? "Winners (tied): " : "Winner: ") + named +
      (ended ? " · the game ended: " + esc(ended) : "") + "</p>";
    let html = "<h2>Final scores</h2><table class=\"scores\" id=\"scores\"><tr>" +
      rows[0].map((c) => "<th>" + esc(c) + "</th>").join("") + "</tr>";
    for (const row of rows.slice(1))
      html += "<tr" + (row[0] === "*" ? " class=\"winner\"" : "") + ">" +
        row.map((c) => "<td>" + esc(c) + "</td>").join("") + "</tr>";
    box.innerHTML = html + "</table>" + tail;
    paintScores(box, msg);
    if (box.querySelector("table").offsetWidth <= box.clientWidth) return;
    // by column: the header's words down the side, a column per seat
    const winner = rows.slice(1).map((row) => row[0] === "*");
    html = "<h2>Final scores</h2><table class=\"scores by-row\" id=\"scores\">";
    rows[0].forEach((name, i) => {
      if (i === 0) return;  // the winner's mark: the winner's column is marked instead
      html += "<tr><th>" + esc(name) + "</th>" + rows.slice(1).map((row, j) =>
        "<td" + (winner[j] ? " class=\"winner\"" : "") + ">" + esc(row[i]) + "</td>").join("") +
        "</tr>";
    });
    box.innerHTML = html + "</table>" + tail;
    paintScores(box, msg);
  }
  // each seat's name in the score table in its colour
  function paintScores(box, msg) {
    if (!msg || !msg.names) return;
    for (const cell of box.querySelectorAll("#scores td, #scores th"))
      paint(cell, msg, msg.names.indexOf(cell.textContent));
  }
  window.addEventListener("resize", () => { if (shownResult) drawResult(...shownResult); });

  function tablePage() {
    const table = app.dataset.table, token = app.dataset.token;
    const controls = $("controls");
    // until the game ends the server sends only what this seat (or a spectator) was shown
    const save = "/api/tables/" + encodeURIComponent(table) + "/save" +
      (token ? "?token=" + encodeURIComponent(token) : "");
    controls.innerHTML = '<a href="' + esc(save) + '" download>Download the save file</a> ' +
      "<small>(until the game ends: what this page was shown)</small>" +
      ' · <a href="/replay?table=' + encodeURIComponent(table) + '">Replay</a>';
    // the speed is the table's creator's to change (the server checks it too)
    if (app.dataset.botOnly === "1" && app.dataset.creator === "1") {
      // the slider starts at the table's own speed (0: every move at once)
      const now = Math.max(0, +app.dataset.speed || 0);
      controls.innerHTML += '<p><label>Speed (moves/s) <input type="range" id="speed" min="0" ' +
        'max="' + Math.max(20, now) + '" step="0.5" value="' + now + '"></label> ' +
        '<span id="speed-shown">' + now + "</span></p>";
      const speed = $("speed");
      speed.oninput = () => {
        $("speed-shown").textContent = speed.value;
        fetch("/api/tables/" + table + "/speed", {method: "POST",
          headers: {"Content-Type": "application/json"},
          body: JSON.stringify({speed: +speed.value})});
      };
    }
    let socket = null, retry = 500;
    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(proto + "//" + location.host + "/ws/tables/" + table +
        (token ? "?token=" + encodeURIComponent(token) : ""));
      socket.onopen = () => { retry = 500; app.classList.remove("offline"); };
      socket.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.type === "error") showError(msg.error);
        else { if (current && msg.decision !== current.decision) showError(""); draw(msg, send); }
      };
      socket.onclose = (ev) => {  // reconnect: the server sends the seat's position again
        app.classList.add("offline");
        if (ev.code >= 4000) return;  // the server refused (a wrong link, a deleted table)
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      };
    }
    function send(option, decision) {
      showError("");
      // a gesture's picks (gesture.js) go as one list of option ids
      const picks = Array.isArray(option) ? {options: option} : {option: option};
      socket.send(JSON.stringify({type: "move", ...picks, decision: decision}));
    }
    connect();
  }

  function replayPage() {
    // a save file's text, or null: then the table of the page's address, which the server
    // replays itself (the browser never holds the seed of a game people may still play)
    let saveText = null;
    const table = app.dataset.table;
    const slider = $("slider");
    async function show(step) {
      const body = saveText !== null ? rulebookReplayBody(saveText, step)
        : JSON.stringify({table: table, step: step});
      const res = await fetch("/api/replay", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: body});
      const msg = await res.json();
      if (!res.ok) { showError(msg.error); return; }
      showError("");
      slider.max = msg.steps;
      slider.value = msg.step;
      slider.disabled = false;
      $("step").textContent = msg.step + " / " + msg.steps;
      draw(msg, null);
    }
    let timer = null;
    slider.oninput = () => { clearTimeout(timer); timer = setTimeout(() => show(+slider.value), 60); };
    $("prev").onclick = () => { slider.value = Math.max(0, +slider.value - 1); show(+slider.value); };
    $("next").onclick = () => { slider.value = +slider.value + 1; show(+slider.value); };
    function open(text) {
      // parsed only to tell a broken file at once; the text itself is what goes to the server
      try { JSON.parse(text); } catch (e) { showError("not a save file: " + e.message); return; }
      saveText = text;
      show("end");
    }
    $("save-file").onchange = (ev) => {
      const file = ev.target.files[0];
      if (file) file.text().then(open);
    };
    // a replay opens at the end (the result, and every hand once the game has ended)
    if (table) show("end");
  }

  if (app.dataset.mode === "replay") replayPage(); else tablePage();
})();

// rulebook table page: the "Undo" button of a seat's page. table.js tells it each message it
// draws (the "rulebook:state" event); the button shows while the message says the seat may
// take moves back (`undo`: how many, 0 once another seat moved, a card came into view or the
// game drew at random). A press takes back the last move (POST /api/tables/ID/undo); the
// websocket of table.js then shows the position taken back to. No framework, no build step; a
// spectator's page (no token) has no button.
(function () {
  "use strict";
  if (typeof document === "undefined") return;
  const app = document.getElementById("app");
  if (!app || app.dataset.mode !== "table" || !app.dataset.token) return;
  const address = "/api/tables/" + encodeURIComponent(app.dataset.table) + "/undo";
  const token = app.dataset.token;

  const box = document.createElement("div");
  box.className = "undo";
  box.hidden = true;
  box.innerHTML = '<button type="button" id="undo" class="undo-button">Undo my last move</button>' +
    '<div id="undo-error" class="error" role="alert" hidden></div>';
  const options = document.getElementById("options");
  if (options) options.after(box); else app.appendChild(box);
  const button = box.querySelector("button");
  const error = box.querySelector(".error");
  let decision = null;

  function showError(text) {
    error.textContent = text || "";
    error.hidden = !text;
  }

  app.addEventListener("rulebook:state", (ev) => {
    const msg = ev.detail;
    if (msg.decision !== decision) showError("");
    decision = msg.decision;
    const moves = msg.undo || 0;
    box.hidden = !moves && error.hidden;
    button.hidden = !moves;
    button.disabled = false;
    button.title = moves > 1 ? moves + " of your moves of this turn can be taken back, one by one"
      : "";
  });

  button.onclick = () => {
    button.disabled = true;
    fetch(address, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: token, decision: decision, moves: 1}),
    }).then((response) => response.json().then((data) => {
      if (!response.ok) throw new Error(data.error || "the server refused");
      showError("");
    })).catch((e) => {
      showError(e.message);
      box.hidden = false;
      button.disabled = false;
    });
  };
})();

// rulebook table page: a person names their seat on joining (POST /api/tables/ID/name). The
// server checks the name (length, no control character, not another seat's) and sends every
// page at the table its position again, every line with the name; a refusal is shown here.
(function () {
  "use strict";
  const form = document.getElementById("name-form");
  const app = document.getElementById("app");
  if (!form || !app) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = document.getElementById("name-error");
    const name = document.getElementById("name").value;
    error.textContent = "";
    const res = await fetch("/api/tables/" + encodeURIComponent(app.dataset.table) + "/name", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: app.dataset.token, name: name})});
    const answer = await res.json();
    if (!res.ok) { error.textContent = answer.error; return; }
    document.getElementById("who").textContent = answer.names[answer.seat];
    form.remove();
  });
})();

// rulebook table page: the "Answers in advance" panel of a seat's page. It lists the game's
// optional questions (GET /api/tables/ID/answers?token=T, this seat's own answers only) and
// sets one when the person changes it (POST the same address); the server applies an answer
// at this seat's own questions as this seat's move, and the websocket of table.js shows it.
// No framework, no build step; a spectator's page (no token) has no panel.
(function () {
  "use strict";
  if (typeof document === "undefined") return;
  const app = document.getElementById("app");
  if (!app || app.dataset.mode !== "table" || !app.dataset.token) return;
  const address = "/api/tables/" + encodeURIComponent(app.dataset.table) + "/answers";
  const token = app.dataset.token;
  const CHOICES = [["ask", "Ask me"], ["take", "Always"], ["decline", "Never (pass)"]];

  const box = document.createElement("details");
  box.id = "answers";
  box.className = "answers";
  box.innerHTML = "<summary>Answers in advance</summary>" +
    '<p class="answers-note">Answer a question before it is asked: "Always" takes it when ' +
    "there is one thing to take (with a choice among several, you are asked), " +
    '"Never" passes. Only you see these. The others see the question asked and your ' +
    "answer as if you had clicked it, but at once: whoever times the table can tell that " +
    'you answered in advance (with "Always": that there was one thing to take).</p>' +
    '<div class="answers-error error" hidden></div>' +
    '<table class="answers-list"><tbody></tbody></table>';
  const anchor = document.getElementById("panel");
  if (anchor) anchor.after(box); else app.appendChild(box);
  const error = box.querySelector(".answers-error");
  const body = box.querySelector("tbody");

  function showError(text) {
    error.textContent = text || "";
    error.hidden = !text;
  }

  function draw(data) {
    body.textContent = "";
    for (const q of data.questions) {
      const row = document.createElement("tr");
      row.dataset.question = q.key;
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = q.text;
      if (q.take && q.take !== q.text) name.title = "Always: " + q.take;
      const cell = document.createElement("td");
      const select = document.createElement("select");
      select.setAttribute("aria-label", q.text);
      for (const [value, label] of CHOICES) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = label;
        select.appendChild(option);
      }
      select.value = data.answers[q.key] || q.start || "ask";
      select.onchange = () => send(q.key, select.value);
      cell.appendChild(select);
      row.append(name, cell);
      body.appendChild(row);
    }
    const set = data.questions.filter(
      (q) => (data.answers[q.key] || q.start || "ask") !== "ask").length;
    box.querySelector("summary").textContent =
      "Answers in advance" + (set ? " (" + set + " set)" : "");
  }

  function answer(response) {
    return response.json().then((data) => {
      if (!response.ok) throw new Error(data.error || "the server refused");
      return data;
    });
  }

  function send(question, how) {
    fetch(address, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({token: token, question: question, answer: how}),
    }).then(answer).then((data) => { showError(""); draw(data); })
      .catch((e) => { showError(e.message); load(); });
  }

  function load() {
    fetch(address + "?token=" + encodeURIComponent(token)).then(answer).then(draw)
      .catch((e) => showError(e.message));
  }

  load();
})();

// rulebook form pages: the new-game form follows the chosen game (its player counts, its
// expansions, one seat row per player); the "Table ready" page copies seat links. A file of its
// own, not inline: the pages' Content-Security-Policy runs this server's script files only.
(function () {
  "use strict";
  const game = document.getElementById("game"), players = document.getElementById("players");
  if (game && players) {
    // a seat still on the last game's default bot follows the game: its own default opponent
    let lastBot = game.selectedOptions[0].dataset.bot;
    function describe(select) {  // the chosen bot's one line under its select
      const doc = select.closest(".seat-row").querySelector(".bot-doc");
      if (doc) doc.textContent = select.selectedOptions[0] ? select.selectedOptions[0].dataset.doc : "";
    }
    function sync() {
      const opt = game.selectedOptions[0];
      players.min = opt.dataset.min; players.max = opt.dataset.max;
      if (+players.value > +opt.dataset.max) players.value = opt.dataset.max;
      if (+players.value < +opt.dataset.min) players.value = opt.dataset.min;
      document.querySelectorAll("fieldset[data-game]").forEach((f) => {
        f.hidden = f.dataset.game !== game.value; f.disabled = f.hidden; });
      document.querySelectorAll(".seat-row").forEach((r, i) => {
        r.hidden = i >= +players.value;
        const select = r.querySelector("select");
        select.disabled = r.hidden;
        // a game's own bot is offered for that game only
        select.querySelectorAll("option[data-game]").forEach((o) => {
          o.hidden = o.disabled = o.dataset.game !== game.value; });
        const bot = opt.dataset.bot || "random";
        if ((select.selectedOptions[0] && select.selectedOptions[0].disabled) ||
            select.value === lastBot) select.value = bot;
        describe(select);
        select.onchange = () => describe(select);
      });
      lastBot = opt.dataset.bot || "random";
    }
    game.addEventListener("change", sync); players.addEventListener("input", sync); sync();
  }
  document.querySelectorAll(".copy").forEach((b) => {
    b.onclick = () => navigator.clipboard.writeText(new URL(b.dataset.url, location).href);
  });
})();

// The lobby: every game `tabletop list` shows; a table is created with its variant, players and bots, and its
// links are shown (the host's, one per human seat, the onlookers').
"use strict";
const $ = (id) => document.getElementById(id);
const BOTS = ["", "random", "greedy"];   // "" is a person
let games = [];

function option(value, text) { const o = document.createElement("option"); o.value = value; o.textContent = text; return o; }
function chosen() { return games.find((g) => g.id === $("game").value); }
function showGame() {
  const g = chosen();
  $("about").textContent = g.description || g.name || "";
  $("variant").replaceChildren(option("", "the base game"), ...g.variants.filter((v) => !v.problem).map((v) => option(v.id, v.name || v.id)));
  const [low, high] = g.players;
  $("players").replaceChildren(...Array.from({length: high - low + 1}, (_, i) => option(low + i, String(low + i))));
  showSeats();
}
function showSeats() {
  const n = Number($("players").value);
  const rows = Array.from({length: n}, (_, seat) => {
    const select = document.createElement("select");
    select.name = `seat-${seat}`; select.dataset.seat = seat;
    select.append(...BOTS.map((b) => option(b, b ? `${b} bot` : "a person")));
    if (seat > 0) select.value = "random";
    const label = document.createElement("label"); label.append(`seat ${seat} `, select);
    return label;
  });
  $("seats").replaceChildren(Object.assign(document.createElement("legend"), {textContent: "Seats"}), ...rows);
}
function linkRow(text, href) {
  const p = document.createElement("p"), a = document.createElement("a");
  a.href = href; a.textContent = href; a.target = "_blank";
  p.append(`${text}: `, a);
  return p;
}
$("game").onchange = showGame;
$("players").onchange = showSeats;
$("create").onsubmit = async (e) => {
  e.preventDefault();
  const bots = {};
  document.querySelectorAll("#seats select").forEach((s) => { if (s.value) bots[s.dataset.seat] = s.value; });
  const asked = {game: $("game").value, variant: $("variant").value || null, players: Number($("players").value), bots};
  const answer = await fetch("/tables", {method: "POST", body: JSON.stringify(asked)});
  const found = await answer.json();
  $("error").hidden = answer.ok; $("error").textContent = found.error || "";
  if (!answer.ok) return;
  const box = document.createElement("div"); box.className = "table-links";
  box.append(Object.assign(document.createElement("h2"), {textContent: `${chosen().name} — ${asked.players} players`}),
    linkRow("host (every person's seat on this screen; undo, save)", found.host),
    ...Object.entries(found.seats).map(([seat, href]) => linkRow(`seat ${seat}`, href)),
    linkRow("onlookers (what is public)", found.spectator));
  $("made").prepend(box);
};
fetch("/games").then((r) => r.json()).then((list) => {
  games = list.filter((g) => g.players[0] && g.players[1]);
  $("game").replaceChildren(...games.map((g) => option(g.id, `${g.name || g.id} (${g.players[0]}–${g.players[1]} players)`)));
  showGame();
});

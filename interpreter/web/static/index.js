"use strict";
// The start page: the games served, and a form that opens a table and lists its seats' links.
const BOTS = ["random", "first", "mc:100", "mc:500", "ismcts:200", "ismcts:1000", "ismcts:0.5s"];
let games = [];

function seatChoices() {
  // each seat: a person, a listed bot, or any bot the engine knows with a budget of one's own (`ismcts:300`)
  const box = document.getElementById("seats");
  const players = Number(document.getElementById("players").value) || 0;
  const kept = [...box.querySelectorAll("select")].map((s) => s.value);
  const typed = [...box.querySelectorAll("input.bot")].map((i) => i.value);
  box.replaceChildren(el("legend", {}, "Who sits where"));
  for (let seat = 0; seat < players; seat++) {
    const select = el("select", { name: `seat-${seat}`, id: `seat-${seat}` });
    select.append(el("option", { value: "person" }, "a person (own link)"));
    for (const bot of BOTS) select.append(el("option", { value: bot }, `bot ${bot}`));
    select.append(el("option", { value: "other" }, "bot, another budget…"));
    select.value = kept[seat] || (seat === 0 ? "person" : "random");
    const other = el("input", { class: "bot", id: `bot-${seat}`, placeholder: "e.g. ismcts:300 or mc:0.2s",
                                value: typed[seat] || "" });
    other.hidden = select.value !== "other";
    select.addEventListener("change", () => { other.hidden = select.value !== "other"; });
    box.append(el("label", {}, `P${seat} `, select, " ", other));
  }
}

function gameChosen() {
  const game = games.find((g) => g.name === document.getElementById("game").value);
  const players = document.getElementById("players");
  players.min = game.min; players.max = game.max; players.value = game.default;
  seatChoices();
}

async function openTable(event) {
  event.preventDefault();
  const error = document.getElementById("error");
  error.textContent = "";
  const seats = [...document.querySelectorAll("#seats select")].map((s, seat) =>
    s.value === "other" ? document.getElementById(`bot-${seat}`).value : s.value);
  const body = {
    game: document.getElementById("game").value,
    players: Number(document.getElementById("players").value),
    seed: Number(document.getElementById("seed").value),
    seats,
  };
  const response = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) { error.textContent = answer.error; return; }
  if (document.getElementById("designer").checked) { window.location.href = answer.designer; return; }
  const links = Object.entries(answer.seats);
  if (links.length === 1) { window.location.href = links[0][1]; return; }
  const list = el("ul", {});
  for (const [seat, link] of links) {
    const url = new URL(link, window.location.href).href;
    list.append(el("li", {}, `P${seat}: `, el("a", { href: link, target: "_blank" }, url)));
  }
  document.getElementById("links").replaceChildren(el("p", {}, "Each person's own link:"), list);
}

async function start() {
  games = await (await fetch("/api/games")).json();
  const list = document.getElementById("games");
  const select = document.getElementById("game");
  for (const g of games) {
    const count = g.min === g.max ? `${g.min} players` : `${g.min}–${g.max} players`;
    const item = el("li", { "data-game": g.name }, el("b", {}, g.title), ` (${g.name}): ${count}`);
    if (g.errors) {  // its files were saved with mistakes: its tables play on by the rules it had
      item.append(el("div", { class: "error-list" }, "its files have mistakes (new tables use the rules before them):",
        el("pre", {}, g.errors.join("\n"))));
    }
    list.append(item);
    select.append(el("option", { value: g.name }, g.title));
  }
  select.addEventListener("change", gameChosen);
  document.getElementById("players").addEventListener("input", seatChoices);
  document.getElementById("new-table").addEventListener("submit", openTable);
  gameChosen();
}

start();

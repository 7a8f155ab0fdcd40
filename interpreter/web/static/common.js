"use strict";
// What the pages share: making elements, and drawing cards, zones, counters, a table's seats and its final
// table from what the server sent (a card it may show by its id, looked up in `page.cards`; one it may not as
// its back), and the websocket to the server.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const words = (name) => String(name).replace(/_/g, " ");

function whoSits(page, seat) {
  if (seat === page.seat) return "you";
  const sitter = page.sitters[seat];
  return sitter === "person" ? "a person" : `bot ${sitter}`;
}

function cardNode(page, card, tagName = "div", attrs = {}) {
  if (typeof card === "string") {
    const known = page.cards[card];
    if (!known) return el(tagName, { class: "card", ...attrs }, el("div", { class: "cname" }, card));
    const full = [known.name, known.kind && `(${words(known.kind)})`, known.numbers, known.text]
      .filter(Boolean).join("\n");
    return el(tagName, { class: "card", title: full, "data-card": card, ...attrs },
      el("div", { class: "cname" }, known.name),
      known.numbers ? el("div", { class: "numbers" }, known.numbers) : null,
      known.text ? el("div", { class: "text" }, known.text) : null);
  }
  // a card the seat may not see: its back, with what the back shows
  const shown = Object.entries(card).filter(([k]) => k !== "hidden" && k !== "owner").map(([, v]) => v);
  return el(tagName, { class: "card back", title: "face down", ...attrs }, shown.join(" / ") || "?");
}

function zoneNode(page, name, cards) {
  const label = words(name.split("@")[0]);
  const box = el("div", { class: "cards" });
  if (Array.isArray(cards)) {
    for (const card of cards) box.append(cardNode(page, card));
    if (!cards.length) box.append(el("span", { class: "pile" }, "empty"));
  } else {
    box.append(el("span", { class: "pile" }, `${cards.count} card${cards.count === 1 ? "" : "s"}, face down`));
  }
  return el("div", { class: "zone", "data-zone": name }, el("div", { class: "name" }, label), box);
}

function counterList(entries) {
  const list = el("dl", {});
  // a counter the seat may not see comes as null
  for (const [name, value] of entries) {
    list.append(el("dt", {}, words(name)), el("dd", {}, value === null ? "?" : String(value)));
  }
  return list;
}


function roundText(view) {
  return view.deal > 1 ? `deal ${view.deal}, round ${view.round}` : `round ${view.round}`;
}

function resultNodes(page) {
  // the final table of a finished match (nothing before its end)
  if (!page.result) return [];
  const rows = el("table", {}, el("tr", {}, el("th", {}, "seat"), el("th", {}, "score"), el("th", {}, "")));
  page.result.scores.forEach((score, seat) => rows.append(el("tr", {},
    el("td", {}, `P${seat} (${whoSits(page, seat)})`), el("td", {}, String(score)),
    el("td", {}, page.result.winners.includes(seat) ? "wins" : ""))));
  return [el("h2", {}, "Final table"), rows];
}

function tableNodes(data, view, you = null) {
  // the zones and counters of a view: the shared ones, then each seat's panel (`you`: the seat whose page it
  // is); a card the view lists as face down (a true state's) is marked so
  const down = new Set(view.face_down || []);
  const shared = [], perSeat = [];
  for (const [name, value] of Object.entries(view.counters || {})) {
    (Array.isArray(value) && value.length === data.players ? perSeat : shared).push([name, value]);
  }
  const zones = el("div", { class: "zones" });
  const seats = [...Array(data.players).keys()].map((s) => {
    const classes = ["seat"];
    if (s === you) classes.push("you");
    if (data.to_act && data.to_act.includes(s)) classes.push("asked");
    return el("div", { class: classes.join(" "), "data-seat": String(s) },
      el("h3", {}, `P${s} (${whoSits(data, s)})`),
      counterList(perSeat.map(([name, values]) => [name, values[s]])));
  });
  for (const [name, cards] of Object.entries(view.zones || {})) {
    const owner = name.includes("@") ? Number(name.split("@").pop()) : null;
    const node = zoneNode(data, name, cards);
    node.querySelectorAll(".card[data-card]").forEach((c) => {
      if (down.has(c.dataset.card)) { c.classList.add("down"); c.title = "(face down) " + c.title; }
    });
    (owner === null ? zones : seats[owner]).append(node);
  }
  return { counters: el("div", { class: "counters" }, shared.length ? counterList(shared) : ""), zones, seats };
}

function drawTable(data, view, you = null) {
  // a page's table drawn into its #counters, #shared and #seats
  const nodes = tableNodes(data, view, you);
  document.getElementById("counters").replaceChildren(...nodes.counters.childNodes);
  document.getElementById("shared").replaceChildren(...nodes.zones.childNodes);
  document.getElementById("seats").replaceChildren(...nodes.seats);
}

function socketTo(path) {
  // a websocket to this server (wss where the page came over https)
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${window.location.host}${path}`);
}

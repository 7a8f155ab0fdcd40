"use strict";
// What the pages of a table share: making elements, and drawing cards, zones and counters from what the
// server sent (a card it may show by its id, looked up in `page.cards`; one it may not as its back).
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


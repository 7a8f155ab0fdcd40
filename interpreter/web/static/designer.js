"use strict";
// The designer's page of a table: the true match (every card face up, the face-down ones marked), every
// seat's question, the log with the state at each entry on hover and a rewind button at each decision,
// the bots paused or stepped, the match log to download, and the game's files as they change.
const TOKEN = window.location.pathname.split("/").pop();
const API = `/api/designer/${TOKEN}`;
const previews = new Map();  // decisions made → the state then (while the page stays as it is)
let page = null;
let shown = "";
let hovered = null;
let seeing = null;  // a seat whose page is shown instead of the true state (null: everything)

async function send(what, body) {
  const response = await fetch(`${API}/${what}`, { method: "POST", body: JSON.stringify(body || {}) });
  const text = await response.text();
  if (!response.ok) { document.getElementById("error").textContent = JSON.parse(text).error; return; }
  document.getElementById("error").textContent = "";
  show(text);
}

function renderRules() {
  const rules = document.getElementById("rules");
  rules.replaceChildren();
  if (page.replayed && !page.rules) rules.append(el("p", { id: "replayed" }, page.replayed));
  if (!page.rules) return;
  if (page.rules.errors) {
    rules.append(el("h2", {}, "The game's files changed, and have mistakes (this table plays on by the old rules)"),
      el("pre", { id: "rules-errors" }, page.rules.errors.join("\n")));
  } else {
    const button = el("button", { type: "button", id: "replay" }, "Replay these decisions on the new rules");
    button.addEventListener("click", () => send("replay"));
    rules.append(el("h2", {}, "The game's files changed"), button);
  }
}

function renderQuestions() {
  const question = document.getElementById("question");
  question.replaceChildren();
  for (const asked of page.asked) {
    const options = el("div", { class: "options" });
    for (const option of asked.options) {
      const attrs = { type: "button", "data-seat": String(asked.seat), "data-action": String(option.action) };
      const button = page.cards[option.label]
        ? cardNode(page, option.label, "button", attrs)
        : el("button", attrs, option.label);
      button.classList.add("option");
      button.addEventListener("click", () => send("act", { seat: asked.seat, action: option.action }));
      options.append(button);
    }
    const who = asked.bot ? `P${asked.seat} (bot ${page.sitters[asked.seat]})` : `P${asked.seat}`;
    question.append(el("div", { class: "prompt" }, `${who}: ${asked.prompt}`), options);
  }
}

function renderLog() {
  const log = document.getElementById("log");
  if (hovered !== null) preview(null);  // the entry hovered goes with the old log (no mouseleave comes)
  log.replaceChildren(...page.log.map((entry) => {
    const at = "decision" in entry ? entry.decision : entry.at;
    const item = el("li", { "data-at": String(at) });
    if ("decision" in entry) {
      const rewind = el("button", { type: "button", class: "rewind", title: "rewind to just before this decision" }, "⟲");
      rewind.addEventListener("click", () => send("rewind", { to: entry.decision }));
      item.classList.add("decision");
      const what = page.cards[entry.label] ? page.cards[entry.label].name : entry.label;
      item.append(rewind, ` #${entry.decision + 1} P${entry.seat}${entry.bot ? " (bot)" : ""}: ${what}`);
    } else {
      item.append(entry.say);
    }
    item.addEventListener("mouseenter", () => preview(at));
    item.addEventListener("mouseleave", () => preview(null));
    return item;
  }));
  log.scrollTop = log.scrollHeight;
}

async function seeAs(seat) {
  // the page seat `seat` is sent (from its handle, as the seat's own page gets it), drawn in place of the truth
  seeing = seat;
  document.querySelectorAll("#see-as button.as").forEach((b) => {
    b.classList.toggle("chosen", b.dataset.as === (seat === null ? "" : String(seat)));
  });
  if (seat === null) { preview(null); return; }
  const response = await fetch(`${API}/seat/${seat}`);
  if (!response.ok || seeing !== seat || hovered !== null) return;
  const theirs = await response.json();
  const nodes = tableNodes(theirs, theirs.view);
  const question = theirs.asked ? `${theirs.prompt} (${theirs.options.map((o) => o.label).join(", ")})` : "not asked";
  document.getElementById("preview").replaceChildren(el("h2", {}, `What P${seat} is sent — ${question}`),
    nodes.counters, nodes.zones, el("div", { class: "seats" }, ...nodes.seats));
  document.getElementById("now").hidden = true;
}

async function preview(at) {
  hovered = at;
  const box = document.getElementById("preview");
  if (at === null) {
    box.replaceChildren();
    document.getElementById("now").hidden = false;
    if (seeing !== null) seeAs(seeing);
    return;
  }
  if (!previews.has(at)) {
    const response = await fetch(`${API}/at/${at}`);
    if (!response.ok) return;
    previews.set(at, await response.json());
  }
  if (hovered !== at) return;
  const then = previews.get(at);
  const nodes = tableNodes({ ...page, cards: { ...page.cards, ...then.cards }, to_act: [] }, then.view);
  box.replaceChildren(el("h2", {}, `The state after ${at} decision${at === 1 ? "" : "s"}`),
    nodes.counters, nodes.zones, el("div", { class: "seats" }, ...nodes.seats));
  document.getElementById("now").hidden = true;
}

function render() {
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  document.title = `${page.title} — designer`;
  document.getElementById("title").textContent = page.title;
  const view = page.view;
  const waiting = page.to_act.map((s) => `P${s}`).join(", ");
  document.getElementById("status").textContent = `seed ${page.seed} · ${page.decisions} decisions · ${roundText(view)} · ` +
    (page.over ? "the match is over" : `to act: ${waiting}`) + (page.paused ? " · bots paused" : "");
  if (page.failure) document.getElementById("error").textContent = page.failure;
  document.getElementById("pause").textContent = page.paused ? "Let the bots play on" : "Pause the bots";
  document.getElementById("download").href = `${API}/log`;
  const links = Object.entries(page.links).map(([seat, link]) =>
    el("li", {}, `P${seat}'s page: `, el("a", { href: link, target: "_blank" }, new URL(link, window.location.href).href)));
  document.getElementById("links").replaceChildren(el("ul", {}, ...links));
  const choices = document.getElementById("see-as");
  if (choices.querySelectorAll("button.as").length !== page.players + 1) {
    for (let s = 0; s < page.players; s++) {
      const button = el("button", { type: "button", class: "as", "data-as": String(s) }, `P${s}`);
      button.addEventListener("click", () => seeAs(s));
      choices.append(button);
    }
  }
  renderRules();
  renderQuestions();
  document.getElementById("result").replaceChildren(...resultNodes(page));
  drawTable(page, view);
  renderLog();
  if (seeing !== null && hovered === null) seeAs(seeing);
}

function show(text) {
  if (text === shown) return;
  shown = text;
  previews.clear();  // a rewind or new rules change the past the previews were of
  page = JSON.parse(text);
  render();
}

function live() {
  let opened = false;
  const socket = socketTo(`/ws/designer/${TOKEN}`);
  socket.onopen = () => { opened = true; document.body.dataset.live = "websocket"; };
  socket.onmessage = (event) => show(event.data);
  socket.onclose = () => {
    if (opened) setTimeout(live, 2000);
    else setTimeout(poll, 800);
  };
}

async function poll() {
  try {
    const response = await fetch(API);
    if (response.ok) show(await response.text());
    else document.getElementById("error").textContent = (await response.json()).error;
  } catch (err) {
    document.getElementById("error").textContent = "the server cannot be reached";
  }
  setTimeout(poll, 800);
}

document.getElementById("pause").addEventListener("click", () => send("pause", { paused: !page.paused }));
document.getElementById("step-one").addEventListener("click", () => send("step", { count: 1 }));
document.getElementById("step-many").addEventListener("click", () => send("step", { count: 10000 }));
document.getElementById("undo").addEventListener("click", () => send("undo"));
document.querySelector('#see-as button.as[data-as=""]').addEventListener("click", () => seeAs(null));
live();

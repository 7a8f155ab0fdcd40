"use strict";
// A seat's table page: it shows what the server sends for this seat (its view, question and log) and
// sends back the seat's answers. The server pushes the page over a websocket at every change; where no
// websocket can be opened, the page polls instead (the server answers 204 while nothing changed).
const TOKEN = window.location.pathname.split("/").pop();
const API = `/api/seat/${TOKEN}`;
let tag = "";
let busy = false;
let shown = "";  // the page last drawn, as the server sent it

function render(page) {
  const view = page.view;
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  document.title = `${page.title} — P${page.seat}`;
  document.getElementById("title").textContent = page.title;
  const waiting = page.to_act.map((s) => `P${s}`).join(", ");
  document.getElementById("status").textContent =
    `You are P${page.seat} · ${roundText(view)} · ` + (page.over ? "the match is over" : `to act: ${waiting}`);
  document.getElementById("error").textContent = page.failure || "";

  const question = document.getElementById("question");
  question.replaceChildren();
  if (page.asked) {
    const options = el("div", { class: "options" });
    for (const option of page.options) {
      const attrs = { type: "button", "data-action": String(option.action) };
      const button = page.cards[option.label]
        ? cardNode(page, option.label, "button", attrs)
        : el("button", attrs, option.label);
      button.classList.add("option");
      button.addEventListener("click", () => answer(option.action));
      options.append(button);
    }
    question.append(el("div", { class: "prompt" }, page.prompt), options);
  }

  document.getElementById("result").replaceChildren(...resultNodes(page));
  drawTable(page, view, page.seat);

  const log = document.getElementById("log");
  log.replaceChildren(...page.log.map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
}

function show(text) {
  if (text === shown) return;  // the same page again (an answer's page, then pushed): nothing to draw
  shown = text;
  render(JSON.parse(text));
}

async function answer(action) {
  if (busy) return;
  busy = true;
  document.querySelectorAll("button.option").forEach((b) => { b.disabled = true; });
  try {
    const response = await fetch(`${API}/act`, { method: "POST", body: JSON.stringify({ action }) });
    if (!response.ok) {
      document.getElementById("error").textContent = (await response.json()).error;
      tag = "";
    } else {
      tag = response.headers.get("ETag") || "";
      show(await response.text());
    }
  } finally {
    busy = false;
    document.querySelectorAll("button.option").forEach((b) => { b.disabled = false; });
  }
}

async function poll() {
  if (!busy) {
    try {
      const response = await fetch(`${API}?since=${encodeURIComponent(tag)}`);
      if (response.status === 200) {
        tag = response.headers.get("ETag") || "";
        show(await response.text());
      } else if (response.status !== 204) {
        document.getElementById("error").textContent = (await response.json()).error;
      }
    } catch (err) {
      document.getElementById("error").textContent = "the server cannot be reached";
    }
  }
  setTimeout(poll, 800);
}

function live() {
  let opened = false;
  const socket = socketTo(`/ws/seat/${TOKEN}`);
  socket.onopen = () => { opened = true; document.body.dataset.live = "websocket"; };
  socket.onmessage = (event) => show(event.data);
  socket.onclose = () => {
    if (!opened) { document.body.dataset.live = "polling"; poll(); return; }  // no websocket: poll
    document.getElementById("error").textContent = "the connection to the server was lost; trying again";
    setTimeout(() => { document.getElementById("error").textContent = ""; live(); }, 2000);
  };
}

live();

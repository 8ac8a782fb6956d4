"use strict";
// The Mini App's page: the table and one's hand, drawn from the server's JSON (bot/miniapp/state.py), kept
// current by its event stream; a tap posts the button's data, as a tap in the private chat would.

const $ = (selector) => document.querySelector(selector);
const launch = readLaunch();
let shown = null; // the state drawn now
let busy = false; // a tap is on its way: another waits for its answer
let stream = null;

function readLaunch() {
  // Telegram gives the launch parameters in the address's fragment (tgWebAppData: the signed initData); a
  // reload of the page keeps them only in this tab's storage.
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  let initData = hash.get("tgWebAppData");
  if (initData) sessionStorage.setItem("initData", initData);
  else initData = sessionStorage.getItem("initData") || "";
  let theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (_) { theme = {}; }
  const signed = new URLSearchParams(initData);
  const game = query.get("game") || hash.get("tgWebAppStartParam") || signed.get("start_param") || "";
  return { initData, theme, game };
}

// --- Telegram's side: the web events a Mini App sends, and those it receives ----------------------------------

function postEvent(type, data) {
  try {
    if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data || {}));
    else if (window.external && "notify" in window.external) window.external.notify(JSON.stringify({ eventType: type, eventData: data }));
    else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
  } catch (_) { /* outside Telegram: nothing to tell */ }
}

function received(type, data) {
  if (type === "theme_changed" && data) applyTheme(data.theme_params || {});
  else if (type === "viewport_changed" && data && data.height) document.documentElement.style.setProperty("--height", `${data.height}px`);
  else if (type === "back_button_pressed") closeSheet();
}

window.Telegram = { WebView: { receiveEvent: received } };
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  let message;
  try { message = typeof event.data === "string" ? JSON.parse(event.data) : event.data; } catch (_) { return; }
  if (message && message.eventType) received(message.eventType, message.eventData);
});

const THEME = { bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link", button_color: "--button",
  button_text_color: "--button-text", secondary_bg_color: "--secondary-bg" };

function applyTheme(params) {
  for (const [key, variable] of Object.entries(THEME)) {
    if (/^#[0-9a-fA-F]{3,8}$/.test(params[key] || "")) document.documentElement.style.setProperty(variable, params[key]);
  }
}

function haptic(kind) {
  const feedback = { play: { type: "impact", impact_style: "light" }, choose: { type: "selection_change" },
    refused: { type: "notification", notification_type: "error" } }[kind];
  postEvent("web_app_trigger_haptic_feedback", feedback);
}

// --- drawing -------------------------------------------------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const FRENCH = { 2: "red", 3: "red" };
const GERMAN = { 0: "green", 1: "acorn", 2: "bell", 3: "red" };

function cardNode(card, german, extra) {
  const colour = (german ? GERMAN : FRENCH)[card.suit] || "";
  return el("span", `card ${colour} ${extra || ""}`.trim(), card.label);
}

function backs(count, extra) {
  return Array.from({ length: count }, () => el("span", `card back ${extra || ""}`.trim()));
}

// Places round the table: the viewer at the bottom, the others clockwise in the order of play.  A place at the
// side is lifted above its cards, so that a play of several cards never runs into its name.
function spot(seat, players, you, radius, lift) {
  const relative = (seat - you + players) % players;
  const angle = Math.PI / 2 + (2 * Math.PI * relative) / players;
  const side = Math.abs(Math.cos(angle)) > 0.5;
  return [50 + radius[0] * Math.cos(angle), 50 + radius[1] * Math.sin(angle) + (side ? lift : 0)];
}

function place(node, [x, y]) {
  node.style.left = `${x}%`;
  node.style.top = `${y}%`;
  return node;
}

function cardsLeft(count) {
  const shown = el("span", "small");
  shown.appendChild(el("i", "mini-back"));
  shown.appendChild(document.createTextNode(String(count)));
  return shown;
}

function drawTable(state) {
  const table = state.table;
  const you = state.you === null ? 0 : state.you;
  const seats = $("#seats");
  seats.replaceChildren();
  table.seats.forEach((seat, index) => {
    const plate = place(el("div", "seat"), spot(index, table.players, you, [40, 41], -15));
    if (index === table.to_move) plate.classList.add("turn");
    const name = el("span", "name", (seat.computer ? "🤖 " : "") + seat.name);
    if (index === state.you) name.appendChild(el("span", "you", ` (${state.words.your_seat})`));
    plate.appendChild(name);
    const line = cardsLeft(seat.cards);
    for (const mark of seat.marks) line.appendChild(el("b", "mark", mark));
    plate.appendChild(line);
    seats.appendChild(plate);
  });
  const middle = $("#middle");
  middle.replaceChildren();
  const pile = el("div", "pile");
  if (table.trump_card) pile.appendChild(cardNode(table.trump_card, table.german, "small"));
  if (table.stock) pile.appendChild(el("span", "card small back"));
  if (pile.childNodes.length) middle.appendChild(pile);
  if (table.stock) middle.appendChild(el("span", "info", table.stock));
  const plays = $("#plays");
  plays.replaceChildren();
  for (const play of table.plays) {
    const group = place(el("div", "play"), spot(play.seat, table.players, you, [26, 25], 5));
    const mark = play.top ? "top" : play.took ? "took" : "";
    for (const card of play.cards) group.appendChild(cardNode(card, table.german, `small ${mark}`));
    for (const back of backs(play.backs, `small ${mark}`)) group.appendChild(back);
    if (play.molodka) group.appendChild(el("span", "badge", table.molodka));
    if (play.top) group.appendChild(el("span", "badge under", table.top));
    plays.appendChild(group);
  }
}

function paragraphs(node, lines) {
  node.replaceChildren(...lines.map((line) => el("p", "", line)));
}

function drawLast(state) {
  const last = $("#last");
  last.replaceChildren();
  last.hidden = !state.last_trick;
  if (!state.last_trick) return;
  last.appendChild(el("span", "", `${state.words.last_trick}:`));
  for (const play of state.last_trick.plays) {
    for (const card of play.cards) last.appendChild(cardNode(card, state.table.german, "small"));
    for (const back of backs(play.backs, "small")) last.appendChild(back);
  }
  if (state.last_trick.taker) last.appendChild(el("span", "", `→ ${state.last_trick.taker}`));
}

function drawHand(state) {
  const hand = $("#hand");
  hand.hidden = !state.hand;
  $("#note").hidden = Boolean(state.hand);
  $("#note").textContent = state.hand ? "" : state.words.spectator;
  if (!state.hand) return;
  paragraphs($("#hints"), state.hand.hints);
  const cards = $("#cards");
  cards.replaceChildren();
  for (const card of state.hand.cards) {
    // a greyed card is written ·so·, as the private chat writes it and as the hint explains it
    const label = card.state === "greyed" ? { ...card, label: `·${card.label}·` } : card;
    const button = cardNode(label, state.table.german, card.state);
    button.setAttribute("role", "button");
    button.tabIndex = 0;
    button.dataset.press = card.data;
    button.addEventListener("click", () => tap(card.data, button, card.state === "playable" || card.state === "chosen" ? "choose" : "play"));
    cards.appendChild(button);
  }
  const moves = $("#moves");
  moves.replaceChildren();
  for (const move of state.hand.moves) {
    const button = el("button", "", move.text);
    button.type = "button";
    button.dataset.press = move.data;
    button.addEventListener("click", () => tap(move.data, button, "play"));
    moves.appendChild(button);
  }
}

function draw(state) {
  if (state.gone) return finish(state.text);
  if (shown && !shown.gone && state.game === shown.game && state.version < shown.version) return; // an older one, late
  shown = state;
  document.documentElement.lang = state.lang;
  document.title = state.table.title;
  $("#title").textContent = state.table.title;
  $("#more").hidden = false;
  drawTable(state);
  paragraphs($("#status"), state.table.taken_by ? [state.table.taken_by, ...state.caption.slice(1)] : state.caption.slice(1));
  drawLast(state);
  drawHand(state);
  if (!$("#sheet").hidden) fillSheet();
}

function finish(text) {
  shown = { gone: true };
  if (stream) stream.close();
  $("#offline").hidden = true;
  $("#hand").hidden = true;
  $("#note").hidden = false;
  $("#note").textContent = text;
}

function toast(text) {
  const box = el("div", "toast", text);
  document.body.appendChild(box);
  setTimeout(() => box.remove(), 3500);
}

// --- the details sheet, closed by Telegram's back button ------------------------------------------------------

function fillSheet() {
  const body = $("#sheet-body");
  const close = el("button", "icon close", "✕");
  close.type = "button";
  close.addEventListener("click", closeSheet);
  body.replaceChildren(close, el("h2", "", shown.table.title));
  for (const line of shown.caption.slice(1)) body.appendChild(el("p", "", line));
  if (shown.previous.length) {
    body.appendChild(el("h2", "", shown.words.previous));
    for (const line of shown.previous) body.appendChild(el("p", "", line));
  }
}

function openSheet() {
  if (!shown || shown.gone) return;
  fillSheet();
  $("#sheet").hidden = false;
  postEvent("web_app_setup_back_button", { is_visible: true });
}

function closeSheet() {
  $("#sheet").hidden = true;
  postEvent("web_app_setup_back_button", { is_visible: false });
}

// --- the server -----------------------------------------------------------------------------------------------

async function refused(response) {
  let text = "";
  try { text = (await response.json()).text || ""; } catch (_) { text = ""; }
  finish(text || `${response.status}`);
}

async function tap(data, node, kind) {
  if (busy || !shown || shown.gone) return;
  busy = true;
  node.classList.add("busy");
  try {
    const response = await fetch("api/press", { method: "POST", body: JSON.stringify({ game: launch.game, data }),
      headers: { "Content-Type": "application/json", "X-Telegram-Init-Data": launch.initData } });
    if (response.status === 401 || response.status === 404) return refused(response);
    const answer = await response.json();
    if (answer.state) draw(answer.state);
    if (answer.alert) toast(answer.alert);
    haptic(answer.refused ? "refused" : kind);
  } catch (_) {
    toast(shown.words.offline);
  } finally {
    busy = false;
    node.classList.remove("busy");
  }
}

function listen() {
  const query = new URLSearchParams({ game: launch.game, initData: launch.initData });
  stream = new EventSource(`api/events?${query}`);
  stream.onmessage = (event) => { $("#offline").hidden = true; draw(JSON.parse(event.data)); };
  stream.onerror = async () => {
    if (shown && shown.gone) return;
    if (stream.readyState === EventSource.CLOSED) { // refused (401, 404), or the server is gone: ask why
      try {
        const response = await fetch(`api/state?${new URLSearchParams({ game: launch.game })}`, { headers: { "X-Telegram-Init-Data": launch.initData } });
        if (!response.ok) return refused(response);
      } catch (_) { /* still away: try again below */ }
      setTimeout(listen, 3000);
    }
    if (shown) { $("#offline").textContent = shown.words.offline; $("#offline").hidden = false; }
  };
}

applyTheme(launch.theme);
$("#more").addEventListener("click", openSheet);
postEvent("web_app_ready");
postEvent("web_app_expand");
postEvent("web_app_request_theme");
postEvent("web_app_request_viewport");
listen();

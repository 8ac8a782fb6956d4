// The playground's page: two chats of one person, live over server-sent events. No build step, no library.
"use strict";

const ALLOWED = new Set(["B", "STRONG", "I", "EM", "U", "INS", "S", "STRIKE", "DEL", "CODE", "PRE", "A",
  "TG-SPOILER", "SPAN", "BLOCKQUOTE"]);
const state = { me: null, bot: "", group: 0, private: 0, commands: { group: [], private: [] }, source: null,
  replyTo: { group: null, private: null } };
const $ = (selector, root = document) => root.querySelector(selector);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Telegram's HTML subset, rebuilt node by node: only its tags survive, links only to http(s).
function sanitized(html) {
  const source = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;
  const out = document.createDocumentFragment();
  const copy = (from, to) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) { to.appendChild(suited(node.textContent)); continue; }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (!ALLOWED.has(node.tagName)) { copy(node, to); continue; }
      const tag = node.tagName === "TG-SPOILER" ? "span" : node.tagName.toLowerCase();
      const made = document.createElement(tag);
      if (node.tagName === "TG-SPOILER" || node.classList.contains("tg-spoiler")) made.className = "spoiler";
      if (tag === "a") {
        const href = node.getAttribute("href") || "";
        if (/^https?:\/\//.test(href)) made.href = href;
      }
      copy(node, made);
      to.appendChild(made);
    }
  };
  copy(source, out);
  return out;
}

// Red hearts and diamonds, as on cards.
function suited(text) {
  const out = document.createDocumentFragment();
  for (const part of text.split(/([♥♦])/)) {
    if (part === "♥" || part === "♦") out.appendChild(el("span", "red", part));
    else if (part) out.appendChild(document.createTextNode(part));
  }
  return out;
}

function plain(message) {
  if (!message.from_bot) return message.text;
  return new DOMParser().parseFromString(`<body>${message.text}</body>`, "text/html").body.textContent;
}

function kindOf(chat) { return chat === state.group ? "group" : "private"; }

// Telegram's "Reply": the next message written in that chat answers this one (e.g. /kick as a reply).
function replyTo(message) {
  const kind = kindOf(message.chat);
  state.replyTo[kind] = message;
  const bar = $(`#pane-${kind} .replying`);
  $(".reply-author", bar).textContent = message.author || (message.from_bot ? `@${state.bot}` : state.me.name);
  $(".reply-text", bar).textContent = plain(message).slice(0, 120);
  bar.hidden = false;
  $(`#pane-${kind} .composer input`).focus();
}

function cancelReply(kind) {
  state.replyTo[kind] = null;
  $(`#pane-${kind} .replying`).hidden = true;
}

function pane(chat) { return chat === state.group ? $("#pane-group") : $("#pane-private"); }

function clock(seconds) {
  const d = new Date(seconds * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function render(message) {
  const mine = message.from_user === state.me.id;
  const row = el("div", `row ${message.from_bot ? "bot" : mine ? "mine" : "other"}`);
  row.dataset.key = `${message.chat}:${message.id}`;
  const bubble = el("div", "bubble");
  if (!message.from_bot && !mine && message.chat === state.group) bubble.appendChild(el("div", "author", message.author || "?"));
  if (message.reply_to) {
    const quote = el("div", "quote");
    quote.appendChild(el("b", "", message.reply_to.author));
    quote.appendChild(el("span", "", plain(message.reply_to)));
    bubble.appendChild(quote);
  }
  if (message.photo) {
    const picture = el("img", "photo");
    if (message.photo_size && message.photo_size[0]) {  // the box keeps its shape while an edited picture loads
      picture.width = message.photo_size[0];
      picture.height = message.photo_size[1];
    }
    picture.src = message.photo;
    picture.alt = "picture";
    bubble.appendChild(picture);
  }
  const body = el("div", "text");
  if (message.from_bot) body.appendChild(sanitized(message.text));
  else body.textContent = message.text;
  bubble.appendChild(body);
  const meta = el("div", "meta", (message.edited ? "edited " : "") + clock(message.date));
  bubble.appendChild(meta);
  const answer = el("button", "reply-btn", "↩");
  answer.type = "button";
  answer.title = "Reply";
  answer.addEventListener("click", () => replyTo(message));
  bubble.appendChild(answer);
  row.appendChild(bubble);
  if (message.buttons.length) {
    const keyboard = el("div", "keyboard");
    for (const buttons of message.buttons) {
      const line = el("div", "keys");
      for (const b of buttons) {
        const key = el("button", "key");
        key.type = "button";
        key.appendChild(suited(b.text));
        if (b.callback_data) key.dataset.callback = b.callback_data;
        if (b.url) { key.classList.add("link"); key.addEventListener("click", () => openUrl(b.url)); }
        else if (b.web_app) { key.classList.add("link"); key.addEventListener("click", () => openApp({ chat: message.chat, message: message.id, url: b.web_app })); }
        else key.addEventListener("click", () => press(message, b.callback_data, key));
        line.appendChild(key);
      }
      keyboard.appendChild(line);
    }
    row.appendChild(keyboard);
  }
  return row;
}

function place(message) {
  const list = $(".messages", pane(message.chat));
  const old = list.querySelector(`[data-key="${message.chat}:${message.id}"]`);
  if (message.deleted) { if (old) old.remove(); return; }
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  const row = render(message);
  if (old) old.replaceWith(row);
  else {
    const later = [...list.children].find((r) => Number(r.dataset.key.split(":")[1]) > message.id);
    list.insertBefore(row, later || null);
  }
  if (!old && (atBottom || message.from_user === state.me.id)) list.scrollTop = list.scrollHeight;
  else if (atBottom) list.scrollTop = list.scrollHeight;
}

function toast(text, alert) {
  if (!text) return;
  const box = el("div", alert ? "toast alert" : "toast");
  box.appendChild(el("div", "", text));
  if (alert) {
    const ok = el("button", "", "OK");
    ok.type = "button";
    ok.addEventListener("click", () => box.remove());
    box.appendChild(ok);
  } else setTimeout(() => box.remove(), 3500);
  $("#toasts").appendChild(box);
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (response.status === 403) { signOut(); throw new Error("signed out"); }
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

async function press(message, data, key) {
  key.classList.add("busy");
  try {
    const answer = await post("/api/press", { user: state.me.id, chat: message.chat, message: message.id, data });
    toast(answer.text, answer.show_alert);
    if (answer.url) openUrl(answer.url);
  } catch (error) { toast(String(error.message || error), true); }
  finally { key.classList.remove("busy"); }
}

function send(chat, text) {
  const kind = kindOf(chat);
  const reply = state.replyTo[kind];
  cancelReply(kind);
  return post("/api/send", { user: state.me.id, chat, text, reply_to: reply ? reply.id : null });
}

// --- Mini Apps: opened in a panel beside the chats, talking to the page as Telegram's web client does ---------

const DARK = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;

async function openApp(what) {
  const answer = await post("/api/webapp", { user: state.me.id, dark: DARK, ...what });
  if (!answer.url) { toast(answer.text, true); return; }
  $("#app-frame").src = answer.url;
  state.appTheme = JSON.parse(new URLSearchParams(new URL(answer.url).hash.slice(1)).get("tgWebAppThemeParams") || "{}");
  $("#app-back").hidden = true;
  $("#miniapp").hidden = false;
  $(".panes").classList.add("with-app");
}

function closeApp() {
  $("#app-frame").src = "about:blank";
  $("#miniapp").hidden = true;
  $(".panes").classList.remove("with-app");
}

function toApp(eventType, eventData) {
  $("#app-frame").contentWindow.postMessage(JSON.stringify({ eventType, eventData }), "*");
}

window.addEventListener("message", (event) => {
  if (event.source !== $("#app-frame").contentWindow) return;
  let message;
  try { message = JSON.parse(event.data); } catch (_) { return; }
  const data = message.eventData || {};
  switch (message.eventType) {
    case "web_app_setup_back_button": $("#app-back").hidden = !data.is_visible; break;
    case "web_app_close": closeApp(); break;
    case "web_app_request_theme": toApp("theme_changed", { theme_params: state.appTheme || {} }); break;
    case "web_app_request_viewport":
      toApp("viewport_changed", { height: $("#app-frame").clientHeight, is_expanded: true, is_state_stable: true }); break;
    case "web_app_trigger_haptic_feedback":
      if (navigator.vibrate) navigator.vibrate(data.type === "notification" ? [30, 40, 30] : 15);
      $("#miniapp").dataset.haptic = data.type || ""; break;
    default: break;
  }
});

// t.me deep links to this bot open the private chat and send /start <payload>, as Telegram does; a Mini App's
// direct link opens the app.
function openUrl(url) {
  const app = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)(\?|$)/.exec(url);
  if (app && app[1].toLowerCase() === state.bot.toLowerCase()) { openApp({ link: url }); return; }
  const link = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]+)$/.exec(url);
  if (link && link[1].toLowerCase() === state.bot.toLowerCase()) {
    $("#pane-private input").focus();
    send(state.private, `/start ${link[2]}`);
    return;
  }
  if (/^https:\/\/t\.me\/[A-Za-z0-9_]+\?startgroup=/.test(url)) {
    toast("The playground has one group: the one on the left. Type /newgame there.", false);
    return;
  }
  if (/^https?:\/\//.test(url)) window.open(url, "_blank", "noopener");
}

function fillMenus() {
  for (const [kind, commands] of Object.entries(state.commands)) {
    const menu = $(`#pane-${kind} .command-menu`);
    menu.replaceChildren();
    for (const c of commands) {
      const item = el("button", "command");
      item.type = "button";
      item.appendChild(el("b", "", `/${c.command}`));
      item.appendChild(el("span", "", c.description));
      item.addEventListener("click", () => { menu.hidden = true; send(kind === "group" ? state.group : state.private, `/${c.command}`); });
      menu.appendChild(item);
    }
  }
}

function connect() {
  if (state.source) state.source.close();
  const source = new EventSource(`/api/events?user=${state.me.id}`);
  state.source = source;
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.kind === "snapshot") {
      state.bot = data.bot; state.group = data.group.id; state.private = data.private.id;
      state.commands = data.commands;
      $("#pane-group .title").textContent = data.group.title;
      $("#pane-private .title").textContent = `@${data.bot}`;
      $("#who").textContent = `you are ${data.me.name}`;
      for (const list of document.querySelectorAll(".messages")) list.replaceChildren();
      for (const m of data.messages) place(m);
      fillMenus();
      document.body.dataset.ready = "1";
    } else if (data.kind === "commands") {
      state.commands = data.commands; fillMenus();
    } else if (data.message) place(data.message);
  };
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) signOut(); };
}

function show(signedIn) {
  $("#login").hidden = signedIn;
  $("#chats").hidden = !signedIn;
}

function signOut() {
  closeApp();
  if (state.source) state.source.close();
  sessionStorage.removeItem("kozel.me");
  delete document.body.dataset.ready;
  show(false);
}

async function quickstart() {
  const answer = await post("/api/quickstart", { user: state.me.id }); // the default game: the server asks the registry
  toast(answer.text, answer.show_alert);
}

function setUp() {
  const saved = sessionStorage.getItem("kozel.me");
  $("#name").value = localStorage.getItem("kozel.name") || `Guest ${100 + Math.floor(Math.random() * 900)}`;
  const lang = (navigator.language || "en").slice(0, 2);
  $("#language").value = ["en", "ru", "cs"].includes(lang) ? lang : "en";
  $("#login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const quick = event.submitter && event.submitter.id === "quick";
    try {
      const me = await post("/api/login", { name: $("#name").value, language: $("#language").value });
      state.me = { id: me.user, name: me.name };
      sessionStorage.setItem("kozel.me", JSON.stringify(state.me));
      localStorage.setItem("kozel.name", me.name);
      show(true);
      connect();
      if (quick) await quickstart();
    } catch (error) { toast(String(error.message || error), true); }
  });
  $("#quick-again").addEventListener("click", () => quickstart().catch((e) => toast(String(e.message || e), true)));
  $("#sign-out").addEventListener("click", signOut);
  $("#app-close").addEventListener("click", closeApp);
  $("#app-back").addEventListener("click", () => toApp("back_button_pressed"));
  for (const section of document.querySelectorAll(".pane[data-kind]")) {
    const form = $(".composer", section);
    const input = $("input", form);
    const menu = $(".command-menu", form);
    $(".menu", form).addEventListener("click", () => { menu.hidden = !menu.hidden; });
    $(".reply-cancel", section).addEventListener("click", () => cancelReply(section.dataset.kind));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const chat = section.dataset.kind === "group" ? state.group : state.private;
      const text = input.value.trim();
      input.value = "";
      menu.hidden = true;
      if (text) send(chat, text).catch((e) => toast(String(e.message || e), true));
    });
    $(".messages", section).addEventListener("click", (event) => {
      const link = event.target.closest("a[href]");
      if (link) { event.preventDefault(); openUrl(link.href); }
    });
  }
  if (saved) { state.me = JSON.parse(saved); show(true); connect(); } else show(false);
}

document.addEventListener("DOMContentLoaded", setUp);

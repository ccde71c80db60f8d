// The page of the web table: shows what the server sends for this page's seat and sends back choices.
// It knows no game: boards arrive drawn (SVG), clickable parts carry data-action, cards carry their faces.
"use strict";
const key = new URLSearchParams(location.search).get("key") || "";
const $ = (id) => document.getElementById(id);
let ws, last = null, shownSeat = null, selectedPiece = null, armed = null;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
function send(msg) { ws.send(JSON.stringify(msg)); }
function act(action) { send({type: "act", seat: last.seat, action, decision_number: last.decision_number}); }

// Icons are font glyphs (often emoji).  One that no installed font has would be drawn as an empty box:
// such an icon shows its data-fallback text instead (a label, or nothing where the name is shown anyway).
const MISSING = "\u{10FFFD}", glyphs = new Map();
function pixels(text) {
  const c = document.createElement("canvas"); c.width = 48; c.height = 32;
  const g = c.getContext("2d", {willReadFrequently: true});
  g.font = "24px sans-serif"; g.textBaseline = "top"; g.fillText(text, 4, 2);
  return g.getImageData(0, 0, c.width, c.height).data.join();
}
function drawsGlyphs(text) {
  if (!glyphs.has(text)) {
    const box = pixels(MISSING), blank = pixels("");
    const chars = Array.from(text).filter((ch) => !/[\u200d\ufe0e\ufe0f\s]/.test(ch));
    glyphs.set(text, chars.every((ch) => { const p = pixels(ch); return p !== box && p !== blank; }));
  }
  return glyphs.get(text);
}
function iconFallback(root) {
  root.querySelectorAll(".icon[data-fallback]").forEach((e) => {
    if (e.textContent && !drawsGlyphs(e.textContent)) e.textContent = e.dataset.fallback;
  });
}
function iconEl(cls, icon, fallback) { return el("span", {class: `icon ${cls}`, "data-fallback": fallback}, icon); }

function cardEl(id, faces) {
  const f = faces[id] || {name: id, text: "", icons: "", icons_text: "", icon: "", colour: "#ccc"};
  const c = el("div", {class: "card", "data-card": id, style: `--c:${f.colour}`},
    iconEl("icons", f.icons, f.icons_text), el("b", {}, iconEl("", f.icon, ""), ` ${f.name}`),
    el("span", {class: "text"}, f.text));
  c.title = id;
  return c;
}
function backsEl(cards) {
  const counts = new Map();
  for (const c of cards) { const k = c ? Object.values(c).join("/") : ""; counts.set(k, (counts.get(k) || 0) + 1); }
  return [...counts].map(([k, n]) => el("span", {class: "back"}, `▒ ${k} ×${n}`.replace("  ", " ")));
}

function choose(option, button) {
  if (option.irreversible && armed !== option.id) {   // irreversible: a second click confirms
    armed = option.id; button.classList.add("confirm"); button.textContent = `confirm: ${option.id}?`; return;
  }
  act(option.id);
}

function render(m) {
  last = m;
  const v = m.view, past = m.type === "past";
  document.body.classList.toggle("past", past);
  $("title").textContent = `${m.name}${m.variant ? " (" + m.variant + ")" : ""}`;
  $("status").textContent = `you are seat ${m.seat}` + (m.stopped ? " · paused on a rule error" : v.is_terminal ? " · game over"
    : v.to_act.length > 1 ? ` · seats ${v.to_act.join(", ")} to decide at once` : ` · seat ${v.current_player} to decide`);
  const problems = (m.problems.length ? ["The rules have errors:", ...m.problems] : [])
    .concat(m.stopped ? ["The game stopped on a rule error (fix the rules, undo or start anew):", m.stopped] : []);
  $("problems").hidden = !problems.length;
  $("problems").textContent = problems.join("\n");
  $("notice").hidden = !m.notice; $("notice").textContent = m.notice;
  $("undo").disabled = !m.can_undo || past; $("redo").disabled = !m.can_redo || past;
  $("save").hidden = $("opener").hidden = !m.host;   // a save holds every hidden card: the host's link only
  if (!past) { $("slider").max = m.actions_taken; $("slider").value = m.actions_taken; }
  $("step").textContent = past ? `step ${m.index} of ${m.total}` : `${m.actions_taken} moves`;
  $("now").hidden = !past;
  // hot-seat: hide the table between two human seats
  const mine = v.decision && v.decision.player === m.seat && m.options.length;
  if (m.hotseat && mine && shownSeat !== null && shownSeat !== m.seat && !past) {
    $("curtain-text").textContent = `Pass the screen to seat ${m.seat}.`;
    $("curtain").hidden = false; $("table").hidden = true;
  }
  if ($("curtain").hidden) shownSeat = m.seat;
  // boards
  const boards = $("boards"); boards.replaceChildren();
  for (const b of m.boards) {
    const fig = el("figure", {"data-board": b.id}); fig.innerHTML = b.svg; boards.append(fig);
  }
  boards.querySelectorAll("[data-action]").forEach((e) => e.addEventListener("click", () => {
    const o = m.options.find((o) => o.id === e.dataset.action); if (o) choose(o, e);
  }));
  boards.querySelectorAll(".piece").forEach((p) => p.addEventListener("click", () => {
    selectedPiece = selectedPiece === p.dataset.piece ? null : p.dataset.piece; showPieces();
  }));
  showPieces();
  // decision and options
  const d = v.decision;
  $("decision").textContent = m.stopped ? "Play is paused." : v.is_terminal ? "" : d ? (d.player === m.seat ? `Your decision: ${d.kind}` :
    `Seat ${d.player} decides (${d.kind})` + (m.bots[d.player] ? ` — ${m.bots[d.player]} bot` : "")) : "";
  const opts = $("options"); opts.replaceChildren(); armed = null;
  for (const o of m.options) {
    const b = el("button", {class: "option" + (o.irreversible ? " irreversible" : ""), "data-action": o.id}, o.id);
    if (o.run) b.append(el("small", {}, ` — ${o.run.summary}`));
    for (const c of o.cards) if (c.text) b.append(el("div", {class: "text"}, iconEl("", c.icons, c.icons_text), ` ${c.text}`));
    b.addEventListener("click", () => choose(o, b));
    b.addEventListener("mouseenter", () => preview(o.id, true));
    b.addEventListener("mouseleave", () => preview(o.id, false));
    opts.append(b);
  }
  // outcome
  const out = v.outcome;
  $("outcome").hidden = !out;
  if (out) $("outcome").textContent = `Game over: ${out.reason}. ` +
    (out.winners.length ? `Winner${out.winners.length > 1 ? "s" : ""}: seat ${out.winners.join(", ")}.` : "No winner.");
  // players
  const keys = [...new Set(v.player_variables.flatMap((p) => Object.keys(p)))];
  const rows = [el("tr", {}, el("th", {}, "seat"), el("th", {}, "score"), ...keys.map((k) => el("th", {}, k)))];
  v.player_variables.forEach((pv, p) => {
    const who = p === m.seat ? " (you)" : m.bots[p] ? ` (${m.bots[p]} bot)` : "";
    const score = m.scores && m.scores[p] !== null && m.scores[p] !== undefined ? String(m.scores[p]) : "?";
    rows.push(el("tr", {class: p === v.current_player ? "current" : ""}, el("td", {}, `${p}${who}`), el("td", {}, score),
      ...keys.map((k) => el("td", {}, k in pv ? fmt(pv[k]) : "hidden"))));
  });
  $("players").replaceChildren(...rows);
  // zones
  const zones = $("zones"); zones.replaceChildren();
  for (const [z, cards] of Object.entries(v.zones)) {
    if (!cards.length) continue;
    const mine = z.endsWith(":" + m.seat) && !cards.some((c) => typeof c !== "string");
    const faces = cards.filter((c) => typeof c === "string"), backs = cards.filter((c) => typeof c !== "string");
    zones.append(el("div", {class: "zone" + (mine ? " mine" : ""), "data-zone": z}, el("h3", {}, `${z} (${cards.length})`),
      ...faces.map((c) => cardEl(c, m.cards)), ...backsEl(backs)));
  }
  $("log").replaceChildren(...v.log.slice(-40).map((l) => el("li", {}, l)));
  $("log").scrollTop = 1e9;
  iconFallback(document.body);
}
function fmt(x) { return x === null ? "—" : x === true ? "yes" : x === false ? "no" : Array.isArray(x) ? x.join(", ") : String(x); }
function preview(id, on) {
  document.querySelectorAll(".preview").forEach((p) => p.classList.toggle("show", on && p.dataset.action === id));
}
function showPieces() {
  document.querySelectorAll(".piece").forEach((p) => p.classList.toggle("selected", p.dataset.piece === selectedPiece));
  document.querySelectorAll(".dest").forEach((d) => d.classList.toggle("dim", selectedPiece !== null && d.dataset.piece !== selectedPiece));
}

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?key=${encodeURIComponent(key)}`);
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "error") { $("error").hidden = false; $("error").textContent = m.message; return; }
    $("error").hidden = true;
    if (m.type === "save") {  // the file's text as the server wrote it: JS numbers would round a 64-bit seed
      const a = el("a", {href: URL.createObjectURL(new Blob([m.text], {type: "application/json"})),
        download: `${m.game}-save.json`});
      document.body.append(a); a.click(); a.remove(); return;
    }
    render(m);
  };
  ws.onclose = () => { $("error").hidden = false; $("error").textContent = "disconnected from the server"; };
}
$("undo").onclick = () => send({type: "undo"});
$("redo").onclick = () => send({type: "redo"});
$("new").onclick = () => send({type: "new"});
$("save").onclick = () => send({type: "save"});
$("open").onchange = async (e) => {
  const f = e.target.files[0]; if (!f) return;
  send({type: "load", text: await f.text()});  // parsed by the server, never by the page (64-bit seeds)
  e.target.value = "";
};
$("slider").oninput = (e) => send({type: "seek", index: Number(e.target.value)});
$("now").onclick = () => send({type: "now"});
$("reveal").onclick = () => { $("curtain").hidden = true; $("table").hidden = false; shownSeat = last.seat; };
connect();

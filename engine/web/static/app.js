// The page of the web table: shows what the server sends for this page's seat and sends back choices.
// It knows no game: boards arrive drawn (SVG), every option names the things on the table it is about
// (its targets: a card, a pile, a seat, a space, a point), and those things carry data-target: clicking one
// chooses the option about it, or offers the few that are.  The list of moves stays as a fallback.
"use strict";
const key = new URLSearchParams(location.search).get("key") || "";
const $ = (id) => document.getElementById(id);
let ws, last = null, shownSeat = null, selectedPiece = null, armed = null, retry = 0;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
function send(msg) { ws.send(JSON.stringify(msg)); }
function act(action) { hideChooser(); send({type: "act", seat: last.seat, action, decision_number: last.decision_number}); }

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

function cardEl(id, faces, copies = 1) {
  const f = faces[id] || {name: id, text: "", icons: "", icons_text: "", icon: "", colour: "#ccc"};
  const c = el("div", {class: "card", "data-card": id, "data-target": `card:${id}`, style: `--c:${f.colour}`},
    iconEl("icons", f.icons, f.icons_text), el("b", {}, iconEl("", f.icon, ""), ` ${f.name}`),
    ...(copies > 1 ? [el("span", {class: "copies"}, `×${copies}`)] : []), el("span", {class: "text"}, f.text));
  c.title = f.name;
  return c;
}
function backsEl(cards) {
  const counts = new Map();
  for (const c of cards) { const k = c ? Object.values(c).join("/") : ""; counts.set(k, (counts.get(k) || 0) + 1); }
  return [...counts].map(([k, n]) => el("span", {class: "back"}, `▒ ${k} ×${n}`.replace("  ", " ")));
}
function zoneName(z) { const [family, key] = z.split(":"); return key === undefined ? family : `${family} ${key}`; }
// A zone as the table shows it: its name and size, the faces one may see (copies of a card once, counted),
// the backs counted.
function zoneEl(z, cards, faces, cls) {
  const copies = new Map(), backs = cards.filter((c) => typeof c !== "string");
  for (const c of cards) if (typeof c === "string") copies.set(c, (copies.get(c) || 0) + 1);
  return el("div", {class: `zone ${cls}`, "data-zone": z, "data-target": `zone:${z}`},
    el("h3", {}, `${zoneName(z)} (${cards.length})`), ...[...copies].map(([c, n]) => cardEl(c, faces, n)), ...backsEl(backs));
}
function seatName(m, p) {
  return p === m.seat && !m.spectator ? `seat ${p} (you)` : m.bots[p] ? `seat ${p} (${m.bots[p]} bot)` : `seat ${p}`;
}
function fmt(x) { return x === null ? "—" : x === true ? "yes" : x === false ? "no" : Array.isArray(x) ? x.join(", ") : String(x); }

// ------------------------------------------------------------ choosing by clicking the table
function optionsAbout(target) { return last.options.filter((o) => o.targets.includes(target)); }
function describe(o) {
  return o.label + (o.run ? ` — ${o.run.summary}` : "") + (o.cards.length && o.cards[0].text ? ` — ${o.cards[0].text}` : "");
}
function choose(option, button) {
  if (option.irreversible && armed !== option.id) {   // irreversible: a second click confirms
    armed = option.id; button.classList.add("confirm"); button.textContent = `confirm: ${option.label}?`; return;
  }
  act(option.id);
}
function hideChooser() { $("chooser").hidden = true; $("chooser").replaceChildren(); }
// The few options about one thing, offered beside it.
function offer(options, x, y) {
  const box = $("chooser");
  box.replaceChildren(...options.map((o) => {
    const b = el("button", {class: "offer" + (o.irreversible ? " irreversible" : ""), "data-action": o.id}, describe(o));
    b.addEventListener("click", (e) => { e.stopPropagation(); choose(o, b); });
    return b;
  }), el("button", {class: "cancel", onclick: hideChooser}, "cancel"));
  box.hidden = false;
  box.style.left = `${Math.max(4, Math.min(x, window.innerWidth - box.offsetWidth - 4)) + window.scrollX}px`;
  box.style.top = `${y + window.scrollY + 8}px`;
}
function clicked(e, target) {
  if (document.body.classList.contains("past")) return;
  let options = optionsAbout(target);
  const moving = options.filter((o) => o.destination && o.destination.piece === selectedPiece);
  if (moving.length) options = moving;   // a piece is selected: a click on a space moves that piece
  if (!options.length) return;
  e.stopPropagation();
  if (options.length === 1 && !options[0].irreversible) act(options[0].id);
  else offer(options, e.clientX, e.clientY);
}
function hover(target, on) {
  const options = on ? optionsAbout(target) : [];
  $("hover").textContent = options.map(describe).join(" · ");
  document.querySelectorAll(".preview").forEach((p) => p.classList.toggle("show", options.some((o) => o.id === p.dataset.action)));
}
function wireTargets(root) {
  root.querySelectorAll("[data-target]").forEach((e) => {
    const t = e.dataset.target;
    if (!optionsAbout(t).length) return;
    e.classList.add("choice");
    e.addEventListener("click", (ev) => clicked(ev, t));
    e.addEventListener("mouseenter", () => hover(t, true));
    e.addEventListener("mouseleave", () => hover(t, false));
  });
  root.querySelectorAll("[data-action]").forEach((e) => {
    if (e.closest("#chooser, #options, #prompt-options, .dest")) return;
    e.addEventListener("click", (ev) => {
      const o = last.options.find((o) => o.id === e.dataset.action); if (o) { ev.stopPropagation(); choose(o, e); }
    });
  });
  root.querySelectorAll(".piece").forEach((p) => p.addEventListener("click", () => {
    selectedPiece = selectedPiece === p.dataset.piece ? null : p.dataset.piece; showPieces();
  }));
}
function showPieces() {
  document.querySelectorAll(".piece").forEach((p) => p.classList.toggle("selected", p.dataset.piece === selectedPiece));
  document.querySelectorAll(".dest").forEach((d) => d.classList.toggle("dim", selectedPiece !== null && d.dataset.piece !== selectedPiece));
}

// ------------------------------------------------------------ drawing the table
function renderSeats(m) {
  const v = m.view, t = m.table;
  const areaOf = (p) => {
    const team = t.teams[p].length > 1 ? ` · team ${t.teams[p].join("+")}` : "";
    const score = m.scores && m.scores[p] !== null && m.scores[p] !== undefined ? ` · ${m.scores[p]} points` : "";
    const vars = Object.entries(v.player_variables[p]).map(([k, x]) => `${k}: ${fmt(x)}`).join(" · ");
    const zones = Object.entries(v.zones).filter(([z, cards]) => t.owners[z] === p && cards.length && !t.drawn.includes(z));
    return el("div", {class: "seat" + (v.to_act.includes(p) ? " deciding" : ""), "data-seat": p, "data-target": `seat:${p}`},
      el("h2", {}, seatName(m, p) + team + score), el("div", {class: "vars"}, vars),
      ...zones.map(([z, cards]) => zoneEl(z, cards, m.cards, p === m.seat ? "hand" : "theirs")));
  };
  const seats = v.player_variables.map((_, p) => p);
  const me = m.spectator ? null : m.seat;
  $("others").replaceChildren(...seats.filter((p) => p !== me).map(areaOf));
  $("mine").replaceChildren(...(me === null ? [] : [areaOf(me)]));
  const middle = Object.entries(v.zones).filter(([z, cards]) => t.owners[z] === null && !t.drawn.includes(z)
    && (cards.length || m.options.some((o) => o.targets.includes(`zone:${z}`))));
  $("piles").replaceChildren(...middle.map(([z, cards]) => zoneEl(z, cards, m.cards, "pile")));
  $("shown").replaceChildren(...(t.shown.length ? [el("h3", {}, "shown to you"), ...t.shown.map((c) => cardEl(c, m.cards))] : []));
}
function renderPrompt(m) {
  const v = m.view, d = v.decision;
  const waiting = d && d.player !== m.seat ? `Waiting for ${seatName(m, d.player)}: ${d.kind}` : "";
  $("decision").textContent = m.stopped ? "Play is paused." : v.is_terminal ? "" : d && d.player === m.seat && !m.spectator
    ? `Your decision: ${d.kind} — click on the table` : waiting;
  $("hints").replaceChildren(...m.table.status.map((s) => el("span", {class: "hint"}, s.value ? `${s.label}: ${s.value}` : s.label)));
  $("prompt").hidden = !$("decision").textContent && !m.table.status.length && !m.options.length;
  // what no thing on the table is about (declining, ending a turn) is a button of the prompt
  $("prompt-options").replaceChildren(...m.options.filter((o) => !o.targets.length).map((o) => {
    const b = el("button", {class: "prompt" + (o.irreversible ? " irreversible" : ""), "data-action": o.id}, o.label);
    b.addEventListener("click", () => choose(o, b));
    return b;
  }));
}
function renderList(m) {
  const opts = $("options"); opts.replaceChildren();
  for (const o of m.options) {
    const b = el("button", {class: "option" + (o.irreversible ? " irreversible" : ""), "data-action": o.id}, o.label);
    if (o.run) b.append(el("small", {}, ` — ${o.run.summary}`));
    for (const c of o.cards) if (c.text) b.append(el("div", {class: "text"}, iconEl("", c.icons, c.icons_text), ` ${c.text}`));
    b.addEventListener("click", () => choose(o, b));
    b.addEventListener("mouseenter", () => o.targets.forEach((t) => hover(t, true)));
    b.addEventListener("mouseleave", () => hover("", false));
    opts.append(b);
  }
}
function renderButtons(m, past) {
  const may = m.may;
  $("undo").hidden = !may.undo; $("undo").disabled = !m.can_undo || past;
  $("redo").hidden = !may.undo; $("redo").disabled = !m.can_redo || past;
  $("new").hidden = !may.undo;
  $("ask-undo").hidden = !may.ask_undo || past;
  $("accept-undo").hidden = $("refuse-undo").hidden = !may.answer_undo || past;
  if (may.answer_undo) $("accept-undo").textContent = `Accept: undo seat ${m.undo_request.by}'s move`;
  $("save").hidden = $("opener").hidden = !m.host;   // a save holds every hidden card: the host's link only
}

function render(m) {
  last = m;
  hideChooser();
  $("hover").textContent = "";   // what was under the pointer is drawn anew
  const v = m.view, past = m.type === "past";
  document.body.classList.toggle("past", past);
  $("title").textContent = `${m.name}${m.variant ? " (" + m.variant + ")" : ""}`;
  $("status").textContent = (m.spectator ? "watching" : `you are seat ${m.seat}`) + (m.stopped ? " · paused on a rule error" : v.is_terminal ? " · game over"
    : v.to_act.length > 1 ? ` · seats ${v.to_act.join(", ")} to decide at once` : ` · seat ${v.current_player} to decide`)
    + (m.undo_request ? ` · seat ${m.undo_request.by} asks to undo` : "");
  const problems = (m.problems.length ? ["The rules have errors:", ...m.problems] : [])
    .concat(m.stopped ? ["The game stopped on a rule error (fix the rules, undo or start anew):", m.stopped] : []);
  $("problems").hidden = !problems.length;
  $("problems").textContent = problems.join("\n");
  $("notice").hidden = !m.notice; $("notice").textContent = m.notice;
  renderButtons(m, past);
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
  const boards = $("boards"); boards.replaceChildren();
  for (const b of m.boards) {
    const fig = el("figure", {"data-board": b.id}); fig.innerHTML = b.svg; boards.append(fig);
  }
  renderSeats(m);
  renderPrompt(m);
  renderList(m);
  armed = null;
  wireTargets($("play"));
  showPieces();
  const out = v.outcome;
  $("outcome").hidden = !out;
  if (out) $("outcome").textContent = `Game over: ${out.reason}. ` +
    (out.winners.length ? `Winner${out.winners.length > 1 ? "s" : ""}: seat ${out.winners.join(", ")}.` : "No winner.");
  const keys = [...new Set(v.player_variables.flatMap((p) => Object.keys(p)))];
  const rows = [el("tr", {}, el("th", {}, "seat"), el("th", {}, "score"), ...keys.map((k) => el("th", {}, k)))];
  v.player_variables.forEach((pv, p) => {
    const score = m.scores && m.scores[p] !== null && m.scores[p] !== undefined ? String(m.scores[p]) : "?";
    rows.push(el("tr", {class: p === v.current_player ? "current" : ""}, el("td", {}, seatName(m, p)), el("td", {}, score),
      ...keys.map((k) => el("td", {}, k in pv ? fmt(pv[k]) : "hidden"))));
  });
  $("players").replaceChildren(...rows);
  $("zones").replaceChildren(...Object.entries(v.zones).filter(([, cards]) => cards.length)
    .map(([z, cards]) => zoneEl(z, cards, m.cards, z.endsWith(":" + m.seat) ? "mine" : "")));
  $("log").replaceChildren(...v.log.slice(-40).map((l) => el("li", {}, l)));
  $("log").scrollTop = 1e9;
  iconFallback(document.body);
}

// ------------------------------------------------------------ the connection
// A page that loses the server (a restart, a network hiccup) tries again by itself, waiting longer each time.
function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?key=${encodeURIComponent(key)}`);
  ws.onopen = () => { retry = 0; };
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
  ws.onclose = (e) => {
    $("error").hidden = false;
    if (e.code === 4403) return;   // the server does not know this link: trying again would not help
    const wait = Math.min(250 * 2 ** retry, 8000);
    retry += 1;
    $("error").textContent = `disconnected from the server: trying again in ${Math.round(wait / 100) / 10} s`;
    setTimeout(connect, wait);
  };
}
$("undo").onclick = () => send({type: "undo"});
$("redo").onclick = () => send({type: "redo"});
$("ask-undo").onclick = () => send({type: "ask_undo"});
$("accept-undo").onclick = () => send({type: "answer_undo", accept: true});
$("refuse-undo").onclick = () => send({type: "answer_undo", accept: false});
$("new").onclick = () => send({type: "new"});
$("save").onclick = () => send({type: "save"});
$("coords").onclick = () => document.body.classList.toggle("coords");
$("open").onchange = async (e) => {
  const f = e.target.files[0]; if (!f) return;
  send({type: "load", text: await f.text()});  // parsed by the server, never by the page (64-bit seeds)
  e.target.value = "";
};
$("slider").oninput = (e) => send({type: "seek", index: Number(e.target.value)});
$("now").onclick = () => send({type: "now"});
$("reveal").onclick = () => { $("curtain").hidden = true; $("table").hidden = false; shownSeat = last.seat; };
document.addEventListener("click", (e) => { if (!e.target.closest("#chooser")) hideChooser(); });
if (window.innerWidth < 700) $("choices").open = false;   // on a phone the table is the controller; the list folds
connect();

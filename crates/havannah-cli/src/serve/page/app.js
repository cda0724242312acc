// The Havannah page: draws the game the server holds for this tab, sends the human's
// actions to the JSON API and polls the engine's statistics while it searches.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const R = 24; // cell radius in SVG units
const POLL_MS = 300;

let gameId = null;
let view = null;
let pollTimer = null;

const $ = (id) => document.getElementById(id);

// ---- the API ----------------------------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `error ${response.status}`);
  }
  return data;
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

async function action(method, path, body) {
  try {
    showMessage("");
    const next = await api(method, path, body);
    setView(next);
  } catch (e) {
    showMessage(e.message);
  }
}

async function gameAction(name, body) {
  if (gameId) await action("POST", `/api/games/${gameId}/${name}`, body === undefined ? {} : body);
}

async function replaceGame(path, body) {
  const old = gameId;
  try {
    showMessage("");
    const next = await api("POST", path, body);
    if (old) api("DELETE", `/api/games/${old}`).catch(() => {});
    setView(next);
  } catch (e) {
    showMessage(e.message);
  }
}

function newGame() {
  return replaceGame("/api/games", {
    size: Number($("size").value),
    time_ms: Number($("time").value),
    pie: $("pie").checked,
    human: $("human").value,
  });
}

function loadRecord() {
  const text = $("record").value.trim();
  if (!text) {
    showMessage("Paste a record or SGF first, or choose a file.");
    return;
  }
  return replaceGame("/api/load", { record: text, time_ms: Number($("time").value) });
}

function setView(next) {
  view = next;
  gameId = next.id;
  render();
  schedulePoll();
}

function schedulePoll() {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
  if (view && view.status !== "idle") {
    pollTimer = setTimeout(poll, POLL_MS);
  }
}

async function poll() {
  pollTimer = null;
  if (!gameId) return;
  try {
    setView(await api("GET", `/api/games/${gameId}`));
  } catch (e) {
    showMessage(e.message);
  }
}

// ---- drawing ----------------------------------------------------------------------------

function centre(x, y) {
  return [(x - y / 2) * Math.sqrt(3) * R, 1.5 * y * R];
}

function hexPoints(cx, cy, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const angle = (Math.PI / 3) * k - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(2)},${(cy + r * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The margin labels: letters above each column's first cell, numbers left of each row.
function coordinateLabels(size) {
  const w = 2 * size - 1;
  const labels = [];
  for (let x = 0; x < w; x++) {
    labels.push([String.fromCharCode(97 + x), x, Math.max(0, x - (size - 1)) - 1]);
  }
  for (let y = 0; y < w; y++) {
    labels.push([String(y + 1), Math.max(0, y - (size - 1)) - 1, y]);
  }
  return labels;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const labels = coordinateLabels(view.size);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of view.cells.map((c) => [c.x, c.y]).concat(labels.map((l) => [l[1], l[2]]))) {
    const [px, py] = centre(x, y);
    [minX, minY, maxX, maxY] = [Math.min(minX, px), Math.min(minY, py), Math.max(maxX, px), Math.max(maxY, py)];
  }
  const pad = R * 1.2;
  svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  const chain = new Set(view.result ? view.result.chain : []);
  const cells = el("g", { class: "cells" });
  const stones = el("g", { class: "stones" });
  for (const cell of view.cells) {
    const [cx, cy] = centre(cell.x, cell.y);
    const classes = ["cell", cell.stone ? "occupied" : "empty"];
    if (chain.has(cell.name)) classes.push("chain");
    if (view.human_to_move && !cell.stone) classes.push("playable");
    const hex = el("polygon", { class: classes.join(" "), points: hexPoints(cx, cy, R), "data-cell": cell.name });
    hex.addEventListener("click", () => clickCell(cell));
    cells.appendChild(hex);
    if (cell.stone) {
      stones.appendChild(el("circle", { class: `stone ${cell.stone}`, cx, cy, r: R * 0.78, "data-cell": cell.name }));
      if (view.last === cell.name) {
        stones.appendChild(el("circle", { class: "last", cx, cy, r: R * 0.22 }));
      }
    }
  }
  svg.appendChild(cells);
  const coords = el("g", { class: "coords" });
  for (const [text, x, y] of labels) {
    const [px, py] = centre(x, y);
    coords.appendChild(el("text", { x: px, y: py }, text));
  }
  svg.appendChild(coords);
  if ($("show-heat").checked) drawAnalysis(svg);
  svg.appendChild(stones);
  if ($("show-heat").checked) drawPv(svg);
}

function cellByName() {
  const cells = new Map();
  for (const cell of view.cells) cells.set(cell.name, cell);
  return cells;
}

// The heat map: each candidate move's share of the visits, the most visited strongest.
function drawAnalysis(svg) {
  const a = view.analysis;
  if (!a || a.ply !== view.ply || !a.candidates.length) return;
  const cells = cellByName();
  const top = Math.max(...a.candidates.map((c) => c.share), 1e-9);
  const onPv = new Set(a.pv);
  const heat = el("g", { class: "heat" });
  for (const c of a.candidates) {
    const cell = cells.get(c.move);
    if (!cell || cell.stone || c.share < 0.005) continue;
    const [cx, cy] = centre(cell.x, cell.y);
    const strength = Math.sqrt(c.share / top);
    heat.appendChild(el("polygon", {
      class: "heat-cell", points: hexPoints(cx, cy, R * 0.92), "fill-opacity": (0.1 + 0.7 * strength).toFixed(3),
    }));
    // The share in per cent, unless a numbered stone of the best line sits there.
    if (c.share >= 0.01 && !($("show-heat").checked && onPv.has(c.move))) {
      heat.appendChild(el("text", { class: "share", x: cx, y: cy }, `${Math.round(100 * c.share)}`));
    }
  }
  svg.appendChild(heat);
}

// The principal variation: numbered ghost stones in the colours that would play them.
function drawPv(svg) {
  const a = view.analysis;
  if (!a || a.ply !== view.ply || !a.pv.length) return;
  const cells = cellByName();
  const pv = el("g", { class: "pv" });
  let colour = a.to_move;
  a.pv.forEach((move, k) => {
    if (move === "swap") return; // the swapping side moves again
    const cell = cells.get(move);
    if (cell && !cell.stone) {
      const [cx, cy] = centre(cell.x, cell.y);
      pv.appendChild(el("circle", { class: `ghost ${colour}`, cx, cy, r: R * 0.6 }));
      pv.appendChild(el("text", { class: `pv-number ${colour}`, x: cx, y: cy }, String(k + 1)));
    }
    colour = colour === "white" ? "black" : "white";
  });
  svg.appendChild(pv);
}

function clickCell(cell) {
  if (!view || !view.human_to_move || cell.stone) return;
  gameAction("move", { move: cell.name });
}

// ---- the panels -------------------------------------------------------------------------

const title = (colour) => colour.charAt(0).toUpperCase() + colour.slice(1);

function statusText() {
  if (view.result) return view.result.text;
  if (view.status === "thinking") return `Engine (${title(view.to_move)}) thinking…`;
  if (view.engine_error) return view.engine_error;
  const mover = title(view.to_move);
  if (view.human_to_move) {
    const suffix = view.status === "analysing" ? " (analysing)" : "";
    return view.human ? `Your move (${mover})${suffix}` : `${mover} to move${suffix}`;
  }
  return `${mover} to move: the engine's turn (Engine move)`;
}

function renderStatus() {
  const status = $("status");
  status.textContent = statusText();
  status.className = view.status;
  const banner = $("result");
  banner.hidden = !view.result;
  banner.textContent = view.result ? view.result.text : "";
  $("ply").textContent = `${view.ply} / ${view.line.length}`;
  const thinking = view.status === "thinking";
  $("swap").hidden = !view.can_swap;
  $("undo").disabled = view.moves.length === 0;
  $("resign").disabled = Boolean(view.result);
  $("engine-move").disabled = thinking || Boolean(view.result);
  $("analyse").disabled = thinking || (Boolean(view.result) && view.status !== "analysing");
  $("analyse").textContent = view.status === "analysing" ? "Stop analysis" : "Analyse";
  $("first").disabled = $("back").disabled = view.ply === 0;
  $("last").disabled = $("forward").disabled = view.ply === view.line.length;
}

function renderStats() {
  const a = view.analysis;
  if (!a) {
    for (const id of ["sims", "winrate", "speed", "tree", "pv"]) $(id).textContent = "–";
    return;
  }
  const searched = a.kind === "move" ? "this move" : "this analysis";
  $("sims").textContent = a.simulations === 0 && a.proven
    ? "none needed: the knowledge at the root proves it"
    : `${a.simulations.toLocaleString()} in the tree, ${a.searched.toLocaleString()} in ${searched}`;
  $("winrate").textContent = a.proven
    ? `${title(a.to_move)} to move: proven ${a.proven}`
    : `${title(a.to_move)} to move: ${(100 * a.win_rate).toFixed(1)} %`;
  $("speed").textContent = `${Math.round(a.per_second).toLocaleString()} simulations/s, ${(a.elapsed_ms / 1000).toFixed(1)} s`;
  $("tree").textContent = `${a.tree_nodes.toLocaleString()} nodes of at most ${a.node_budget.toLocaleString()}`;
  const stale = a.ply !== view.ply ? ` (after move ${a.ply})` : "";
  $("pv").textContent = a.pv.join(" ") + stale;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  view.line.forEach((move, k) => {
    const item = document.createElement("li");
    item.textContent = move;
    item.dataset.ply = String(k + 1);
    if (k < view.ply) item.classList.add("played");
    if (k + 1 === view.ply) item.classList.add("current");
    item.addEventListener("click", () => gameAction("goto", { ply: k + 1 }));
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function render() {
  drawBoard();
  renderStatus();
  renderStats();
  renderMoves();
}

// ---- saving and loading -----------------------------------------------------------------

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "text/plain" }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function save(kind) {
  if (!view) return;
  const text = kind === "sgf" ? view.sgf : view.record;
  $("record").value = text;
  download(`havannah-${view.size}-${view.line.length}.${kind === "sgf" ? "sgf" : "txt"}`, text);
}

function readFile() {
  const file = $("file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    $("record").value = String(reader.result);
    loadRecord();
  };
  reader.readAsText(file);
}

// ---- wiring -----------------------------------------------------------------------------

function step(ply) {
  if (view && ply >= 0 && ply <= view.line.length && ply !== view.ply) gameAction("goto", { ply });
}

function init() {
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  $("swap").addEventListener("click", () => gameAction("move", { move: "swap" }));
  $("undo").addEventListener("click", () => gameAction("undo"));
  $("resign").addEventListener("click", () => gameAction("resign"));
  $("engine-move").addEventListener("click", () => gameAction("engine"));
  $("analyse").addEventListener("click", () => gameAction("analyse", { on: view.status !== "analysing" }));
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(view.ply - 1));
  $("forward").addEventListener("click", () => step(view.ply + 1));
  $("last").addEventListener("click", () => step(view.line.length));
  $("load").addEventListener("click", loadRecord);
  $("file").addEventListener("change", readFile);
  $("save-record").addEventListener("click", () => save("record"));
  $("save-sgf").addEventListener("click", () => save("sgf"));
  $("show-heat").addEventListener("change", () => view && drawBoard());
  document.addEventListener("keydown", (event) => {
    if (!view || event.target.closest("textarea, input, select")) return;
    if (event.key === "ArrowLeft") step(view.ply - 1);
    if (event.key === "ArrowRight") step(view.ply + 1);
  });
  window.addEventListener("beforeunload", () => {
    // Frees the game at once rather than after the idle timeout.
    if (gameId) fetch(`/api/games/${gameId}`, { method: "DELETE", keepalive: true });
  });
  newGame();
}

init();

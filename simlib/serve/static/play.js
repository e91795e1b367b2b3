// One play of a run (/api/play): the replay's account of it, and each seat's standing after each step as a line.
"use strict";

const byId = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, value] of Object.entries(attributes)) node.setAttribute(k, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function standingChart(play) {
  const W = 760, H = 300, L = 50, R = 110, T = 12, B = 34;
  const turns = Math.max(...play.standings.map((r) => r[0]));
  const values = play.standings.map((r) => r[2]);
  let y0 = Math.min(0, ...values), y1 = Math.max(...values);
  if (y1 === y0) y1 = y0 + 1;
  const X = (t) => L + (W - L - R) * (turns ? t / turns : 0);
  const Y = (y) => T + (H - T - B) * (1 - (y - y0) / (y1 - y0));
  const node = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "standing", role: "img",
                            "aria-label": `each seat's ${play.unit} after each step` });
  node.append(svg("line", { x1: L, x2: W - R, y1: Y(y0), y2: Y(y0), class: "zero" }));
  for (const y of [y0, y1]) node.append(svg("text", { x: L - 6, y: Y(y) + 4, class: "tick", "text-anchor": "end" }, String(y)));
  node.append(svg("text", { x: L, y: H - 8, class: "tick" }, "0"));
  node.append(svg("text", { x: W - R, y: H - 8, class: "tick", "text-anchor": "end" }, `${turns} (${play.step})`));
  const ends = [];
  for (let seat = 0; seat < play.players; seat++) {
    const rows = play.standings.filter((r) => r[1] === seat).sort((a, b) => a[0] - b[0]);
    if (!rows.length) continue;
    const colour = COLOURS[seat % COLOURS.length];
    const points = rows.map((r) => `${X(r[0]).toFixed(1)},${Y(r[2]).toFixed(1)}`).join(" ");
    node.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, class: `seat seat-${seat}` }));
    const last = rows[rows.length - 1];
    ends.push({ y: Y(last[2]) + 4, colour, text: `seat ${seat}: ${last[2]}` });
  }
  // The seats' end labels top to bottom, each at least a line below the one above (close standings would overlap).
  ends.sort((a, b) => a.y - b.y);
  ends.forEach((end, i) => { if (i) end.y = Math.max(end.y, ends[i - 1].y + 12); });
  for (let i = ends.length - 1; i >= 0; i--) {  // those pushed below the chart go back up, a line apart
    ends[i].y = Math.min(ends[i].y, i === ends.length - 1 ? H - 4 : ends[i + 1].y - 12);
  }
  ends.forEach((end) => node.append(svg("text", { x: W - R + 6, y: end.y, class: "tick", fill: end.colour }, end.text)));
  return node;
}

// The board (Game.drawing): every shape with the turns it stands between, drawn as it stood after the chosen turn.
const SEAT_COLOURS = COLOURS; // a seat has one colour on the page: on the board as in the standing

function boardSvg(drawing) {
  const xs = drawing.shapes.flatMap((s) => s.points.map((p) => p[0]));
  const ys = drawing.shapes.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = Math.min(700 / (x1 - x0 + 1), 560 / (y1 - y0 + 1));
  const X = (x) => (x - x0 + 0.5) * scale, Y = (y) => (y - y0 + 0.5) * scale;
  const node = svg("svg", { width: X(x1) + scale / 2, height: Y(y1) + scale / 2, class: "board", role: "img",
                            "aria-label": "the board" });
  node.style.background = drawing.background || "#f6f6f6";
  drawing.shapes.forEach((s, i) => {
    const pts = s.points.map((p) => `${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(" ");
    const colour = s.seat === undefined || s.seat === null ? "#333" : SEAT_COLOURS[s.seat % SEAT_COLOURS.length];
    const fill = s.fill || (s.seat === undefined || s.seat === null ? "#fff" : colour);
    let shape;
    if (s.kind === "text") {
      shape = svg("text", { x: X(s.points[0][0]), y: Y(s.points[0][1]) + 5, "text-anchor": s.anchor || "middle",
                            class: "token", fill: s.fill || "#222" }, s.label);
    } else if (s.kind === "circle") {
      shape = svg("circle", { cx: X(s.points[0][0]), cy: Y(s.points[0][1]), r: s.r * scale, fill, stroke: "#222",
                              "stroke-width": 1 });
    } else if (s.kind === "square") {
      const size = s.size * scale, [x, y] = [X(s.points[0][0]), Y(s.points[0][1])];
      shape = svg("g", {});
      shape.append(svg("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, fill, stroke: "#222",
                                 "stroke-width": 1 }));
      if (s.label) {
        shape.append(svg("text", { x, y: y + 4, "text-anchor": "middle", class: "token",
                                   fill: ["#1f77b4", "#d62728", "#8c564b", "#9467bd"].includes(fill) ? "#fff" : "#222" },
                         s.label));
      }
    } else if (s.kind === "polygon") {
      shape = svg("polygon", { points: pts, fill: s.fill || "#eee", stroke: "#fff", "stroke-width": 1.5 });
    } else if (s.kind === "line") {
      shape = svg("polyline", { points: pts, stroke: "#9a9a9a", "stroke-width": 1.5, fill: "none" });
    } else if (s.kind === "road" || s.kind === "ship") {
      shape = svg("polyline", { points: pts, stroke: colour, "stroke-width": scale / 7, fill: "none",
                                "stroke-dasharray": s.kind === "ship" ? `${scale / 6} ${scale / 10}` : "",
                                "stroke-linecap": "round", class: "piece-outline" });
    } else {
      const size = (s.kind === "city" ? 0.34 : 0.22) * scale;
      const [x, y] = [X(s.points[0][0]), Y(s.points[0][1])];
      shape = svg("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, fill: colour,
                            stroke: "#222", "stroke-width": 1 });
    }
    shape.dataset.from = s.from === undefined ? -1 : s.from;
    if (s.until !== undefined && s.until !== null) shape.dataset.until = s.until;
    shape.classList.add("shape", s.kind);
    if (s.title) shape.append(svg("title", {}, s.title));
    node.append(shape);
    if (s.label && s.kind === "polygon") {
      const cx = s.points.reduce((a, p) => a + X(p[0]), 0) / s.points.length;
      const cy = s.points.reduce((a, p) => a + Y(p[1]), 0) / s.points.length;
      node.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "token", fill: "#222" }, s.label));
    }
  });
  return node;
}

function showBoardAt(turn) {
  byId("turn-shown").textContent = turn < 0 ? "the set-up" : String(turn);
  document.querySelectorAll("#board .shape").forEach((shape) => {
    const from = Number(shape.dataset.from);
    const until = shape.dataset.until === undefined ? Infinity : Number(shape.dataset.until);
    shape.style.display = from <= turn && turn < until ? "" : "none";
  });
}

// Which colour is which seat: the board's pieces and the standing's lines share one colour per seat.
function seatKey(players) {
  const items = [];
  for (let seat = 0; seat < players; seat++) {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    items.push(swatch, document.createTextNode(` seat ${seat}  `));
  }
  byId("seat-key").replaceChildren(document.createTextNode("the seats' colours: "), ...items);
}

function showBoard(drawing, players) {
  byId("board-section").hidden = false;
  byId("board-legend").textContent = drawing.legend;
  if (drawing.shapes.some((s) => s.seat !== undefined && s.seat !== null)) seatKey(players);
  byId("board").replaceChildren(boardSvg(drawing));
  const slider = byId("turn");
  slider.max = String(drawing.turns - 1);
  slider.value = slider.max;
  slider.addEventListener("input", () => showBoardAt(Number(slider.value)));
  showBoardAt(Number(slider.value));
}

function link(id, play, index) {
  const a = byId(id);
  if (index < 0 || index >= play.plays) { a.removeAttribute("href"); return; }
  a.href = `/play?game=${encodeURIComponent(play.game)}&run=${encodeURIComponent(play.run_id)}&play=${index}`;
}

async function start() {
  const query = new URLSearchParams(window.location.search);
  const response = await fetch(`/api/play?${query}`);
  const play = await response.json();
  if (!response.ok) {
    byId("status").textContent = Object.values(play.errors).join("; ");
    document.body.dataset.ready = "true";
    return;
  }
  byId("title").textContent = `${play.title}: play ${play.play} of run ${play.run_id}`;
  byId("where").textContent = `${play.players} players; ${play.rules ? `rules changed: ${play.rules}` : "the default rules"}; ` +
    `play ${play.play} of ${play.plays.toLocaleString("en")} ` +
    `(the same at the shell: simlib replay ${play.game} --run ${play.run_id} --play ${play.play})`;
  byId("status").textContent = play.mismatch ? `The re-simulation differs from the lake in ${play.mismatch}.`
    : "The re-simulation matches the lake's rows for this play.";
  link("previous", play, play.play - 1);
  link("next", play, play.play + 1);
  if (play.standings.length) {
    byId("standing-section").hidden = false;
    byId("standing-title").textContent = `The standing: each seat's ${play.unit} after each step`;
    byId("standing").replaceChildren(standingChart(play));
  }
  if (play.drawing) showBoard(play.drawing, play.players);
  byId("told").textContent = play.text;
  document.body.dataset.ready = "true";
}

start().catch((error) => {  // the server gone, or an answer that is not JSON: say so rather than wait blank
  byId("status").textContent = `The play could not be loaded: ${error.message}`;
  document.body.dataset.ready = "true";
});

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
  for (let seat = 0; seat < play.players; seat++) {
    const rows = play.standings.filter((r) => r[1] === seat).sort((a, b) => a[0] - b[0]);
    if (!rows.length) continue;
    const colour = COLOURS[seat % COLOURS.length];
    const points = rows.map((r) => `${X(r[0]).toFixed(1)},${Y(r[2]).toFixed(1)}`).join(" ");
    node.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, class: `seat seat-${seat}` }));
    const last = rows[rows.length - 1];
    node.append(svg("text", { x: W - R + 6, y: Y(last[2]) + 4, class: "tick", fill: colour }, `seat ${seat}: ${last[2]}`));
  }
  return node;
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
  byId("where").textContent = `${play.players} players; play ${play.play} of ${play.plays.toLocaleString("en")} ` +
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
  byId("told").textContent = play.text;
  document.body.dataset.ready = "true";
}

start();

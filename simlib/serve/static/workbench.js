// The workbench page: the catalogue (/api/catalogue), a job's form, and its verdicts as the chunks come in
// (/api/jobs). The page sends a job's fields only; the server checks them and says what is wrong beside each one.
"use strict";

const byId = (id) => document.getElementById(id);
const POLL_MS = 500;
let catalogue = null;
let current = null; // the job shown
let polling = null;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function shown(value) {
  if (value === true || value === false) return String(value);
  if (value === "") return '""';
  return Array.isArray(value) ? value.join(", ") : String(value);
}

// The catalogue -------------------------------------------------------------------------------------------------

function showPolicies(game) {
  byId("policies").querySelector("tbody").replaceChildren(...game.policies.map((p) => {
    const tr = el("tr");
    tr.append(el("td", p.name, "name"), el("td", p.description),
              el("td", p.params.map((q) => `${q.name} (${shown(q.default)})`).join(", ")));
    return tr;
  }));
}

function parameterRow(p) {
  const tr = el("tr");
  tr.dataset.name = p.name;
  const tryCell = el("td");
  if (p.settable) {
    const input = el("input");
    input.className = "try";
    input.dataset.name = p.name;
    input.size = 10;
    input.placeholder = p.choices ? p.choices.filter((c) => c !== p.default).join(",") : "new value";
    input.setAttribute("aria-label", `try ${p.name}`);
    tryCell.append(input, el("span", "", "error"));
    tryCell.lastChild.dataset.for = `vary:${p.name}`;
  }
  const prov = el("td");
  prov.append(el("span", p.provenance, `prov ${p.provenance}`));
  const what = el("td", p.doc);
  if (p.source) what.append(el("span", `source: ${p.source}`, "source"));
  if (p.reading) what.append(el("span", `the rule text reads two ways: ${p.reading}`, "reading"));
  tr.append(el("td", p.name, "name"), el("td", shown(p.default), "default"), tryCell, prov, what);
  return tr;
}

// Who plays: one rung of the skill ladder at every seat, or seat by seat (a mixed table, as --policies a,b,c).
function lineup() {
  if (!byId("by-seat").checked) return byId("lineup").value;
  return [...document.querySelectorAll("#seats select")].map((s) => s.value).join(",");
}

function showSeats(game) {
  const box = byId("seats");
  box.hidden = !byId("by-seat").checked;
  byId("lineup").disabled = byId("by-seat").checked;
  const rungs = game.rungs.map((r) => r.spec);
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  const seats = [];
  for (let seat = 0; seat < Number(byId("players").value); seat++) {
    const select = el("select");
    select.id = `seat-${seat}`;
    select.append(...game.rungs.map((r, i) => new Option(`rung ${i + 1}: ${r.words}`, r.spec)));
    select.value = rungs.includes(before[seat]) ? before[seat] : byId("lineup").value;
    select.addEventListener("change", () => { showLineupDoc(game); showCost(); });
    const label = el("label", `seat ${seat} `, "plain");
    label.append(select);
    seats.push(label);
  }
  box.replaceChildren(...seats);
}

function showLineupDoc(game) {
  const words = [...new Set(lineup().split(","))].map((spec) => {
    const policy = game.policies.find((p) => p.name === spec.split(":")[0]);
    return policy ? `${spec}: ${policy.description}` : "";
  });
  byId("lineup-doc").textContent = words.filter(Boolean).join(" ");
}

function showGame(game) {
  byId("game-title").textContent = `${game.title} (rules ${game.rules_version})`;
  const counts = [];
  for (let n = game.players[0]; n <= game.players[1]; n++) counts.push(n);
  byId("players").replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
  byId("players").value = String(Math.min(Math.max(4, game.players[0]), game.players[1]));
  byId("lineup").replaceChildren(...game.rungs.map((r, i) =>
    new Option(`rung ${i + 1} of the skill ladder: ${r.words}`, r.spec)));
  byId("seats").replaceChildren();
  showSeats(game);
  showLineupDoc(game);
  showPolicies(game);
  byId("parameters").querySelector("tbody").replaceChildren(...game.parameters.map(parameterRow));
  showExamples(game);
  clearErrors();
}

// What the chosen line-up costs on this machine, measured by the server before anything runs.
let costAsked = 0;

async function showCost() {
  const asked = ++costAsked;
  const query = new URLSearchParams({ game: byId("game").value, players: byId("players").value,
                                      lineup: lineup() });
  byId("cost").textContent = "Measuring what this line-up costs on this machine…";
  const response = await fetch(`/api/speed?${query}`);
  const data = await response.json();
  if (asked !== costAsked) return; // another choice was made meanwhile
  if (!response.ok) {
    byId("cost").textContent = Object.values(data.errors).join("; ");
    return;
  }
  const rate = data.plays_per_second;
  const said = rate >= 100 ? plays(Math.round(rate)) : rate.toFixed(rate >= 10 ? 0 : 1);
  const first = data.first_seconds < 1 ? "under a second" : `about ${formatDuration(data.first_seconds)}`;
  byId("cost").textContent = `Cost, measured on this machine: ${said} plays a second per process ` +
    `(${data.processes} process${data.processes > 1 ? "es" : ""}); a first chunk of ${plays(data.first_plays)} ` +
    `plays for the baseline and one variant takes ${first} (each more variant adds as much), ` +
    `${plays(100000)} plays a run about ${formatDuration(2 * 100000 / (rate * data.processes))}.`;
}

function formatDuration(seconds) {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function showExamples(game) {
  const mine = catalogue.examples.filter((e) => e.game === game.name);
  byId("examples-section").hidden = !mine.length;
  byId("examples-summary").textContent = `the example plays of ${mine.length} table${mine.length === 1 ? "" : "s"} ` +
    "of one policy";
  byId("examples").replaceChildren(...mine.map((e) => {
    const li = el("li", `${e.setup}: `);
    e.plays.forEach((p, i) => {
      const a = el("a", `play ${p.play}, ${p.kind}`);
      a.href = `/play?game=${encodeURIComponent(e.game)}&run=${encodeURIComponent(e.run_id)}&play=${p.play}`;
      li.append(...(i ? [document.createTextNode("; "), a] : [a]));
    });
    return li;
  }));
}

function chosenGame() {
  return catalogue.games.find((g) => g.name === byId("game").value);
}

// A job: its form, its errors, its progress ---------------------------------------------------------------------

function clearErrors() {
  document.querySelectorAll(".error").forEach((e) => { e.textContent = ""; });
  document.querySelectorAll("input.bad, select.bad").forEach((e) => e.classList.remove("bad"));
}

function showErrors(errors) {
  clearErrors();
  const unplaced = [];
  for (const [field, message] of Object.entries(errors)) {
    const spot = document.querySelector(`.error[data-for="${CSS.escape(field)}"]`);
    if (spot) {
      spot.textContent = message;
      const input = field.startsWith("vary:") ? document.querySelector(`input.try[data-name="${field.slice(5)}"]`)
        : byId(field);
      if (input) input.classList.add("bad");
    } else {
      unplaced.push(`${field}: ${message}`);
    }
  }
  byId("status").textContent = unplaced.length ? unplaced.join("; ") : "Nothing ran: see the messages beside the fields.";
}

function form() {
  const vary = {};
  document.querySelectorAll("input.try").forEach((input) => {
    if (input.value.trim()) vary[input.dataset.name] = input.value.trim();
  });
  return { game: byId("game").value, players: byId("players").value, lineup: lineup(), vary,
           budget: byId("budget").value, width: byId("width").value, seed: byId("seed").value };
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                      body: body === undefined ? "{}" : JSON.stringify(body) });
  return { ok: response.ok, data: await response.json() };
}

async function run() {
  const { ok, data } = await post("/api/jobs", form());
  if (!ok) {
    showErrors(data.errors);
    return;
  }
  clearErrors();
  follow(data);
}

async function act(action) {
  if (!current) return;
  const { ok, data } = await post(`/api/jobs/${current.id}/${action}`);
  if (ok) follow(data);
}

function follow(job) {
  if (!current || current.id !== job.id) shownChunks = -1;
  current = job;
  show(job);
  if (polling === null && active(job)) polling = setInterval(poll, POLL_MS);
}

function active(job) {
  return ["queued", "running", "stopping"].includes(job.state);
}

async function poll() {
  const response = await fetch(`/api/jobs/${current.id}`);
  const job = await response.json();
  current = job;
  show(job);
  if (!active(job)) {
    clearInterval(polling);
    polling = null;
  }
}

// What the page shows of a job ----------------------------------------------------------------------------------

const plays = (n) => Number(n).toLocaleString("en");

function statusWords(job) {
  const played = job.verdicts ? `${plays(job.verdicts.plays)} paired plays per run` : "no chunk finished yet";
  const first = job.first_verdict_seconds === null ? "" : `; the first verdict came after ${job.first_verdict_seconds} s`;
  switch (job.state) {
    case "queued": return `Queued: ${job.ahead} job(s) run first (one writer to the lake at a time).`;
    case "running": return `Running chunk ${job.chunks.length + 1}: ${played}${first}.`;
    case "stopping": return `Stopping once the chunk that is running ends: ${played}.`;
    case "stopped": return `Stopped (${job.reason}): ${played}. Every finished chunk is in the lake; Resume goes on ` +
      "with the next seed.";
    case "done": return `Done: ${job.reason}; ${played}${first}.`;
    default: return `Failed: ${job.reason}`;
  }
}

let shownChunks = -1; // the results are redrawn only when a chunk came in (its verdicts come with it)

function show(job) {
  byId("status").textContent = statusWords(job);
  byId("stop").disabled = !active(job);
  byId("resume").disabled = !["stopped", "failed"].includes(job.state);
  if (!job.verdicts || job.history.length === shownChunks) return;
  shownChunks = job.history.length;
  byId("results").hidden = false;
  const v = job.verdicts;
  byId("plays-said").textContent = `after ${plays(v.plays)} paired plays per run (${v.table})`;
  const items = v.variants.map((variant) => el("li", variant.sentence, "variant"));
  const base = v.runs.find((r) => r.is_baseline);
  if (base && base.start_player) items.push(el("li", `Is the start player favoured? ${base.start_player}`, "seat"));
  byId("verdicts").replaceChildren(...items);
  byId("narrowing").replaceChildren(...narrowingCharts(job.history, job.spec.width));
  showRuns(v);
  byId("chunks").querySelector("ol").replaceChildren(...job.chunks.map((c) => {
    const li = el("li", `seed ${c.seed}, ${plays(c.plays)} plays per run, ${c.seconds} s: `);
    li.append(el("code", c.command));
    const open = el("span", "open its first play:", "plays");
    c.run_ids.forEach((run, i) => {
      const a = el("a", i === 0 ? "baseline" : v.runs[i] ? v.runs[i].words : run);
      a.href = `/play?game=${encodeURIComponent(job.spec.game)}&run=${encodeURIComponent(run)}&play=0`;
      open.append(a);
    });
    li.append(open);
    return li;
  }));
}

function figure(cell, share) {
  if (!cell) return "";
  const f = (x) => (x === null ? "?" : share ? `${(100 * x).toFixed(1)}%` : x.toFixed(2));
  return `${f(cell.value)} (${f(cell.lo)} to ${f(cell.hi)})`;
}

function showRuns(v) {
  // A column is [its heading, a run's cell, whether it is a share]; at a mixed table, one per policy.
  const columns = [
    ...(v.runs[0].policies || []).map((p, i) => [
      `${p.policy}'s win share per seat (fair: ${(100 * p.fair).toFixed(1)}%)`, (r) => r.policies[i].share, true]),
    ...[["seat0", "seat 0's win share", true], ["balance", "balance", true],
        ["headline", "the game's headline", false], ["length", "game length", false]]
      .filter(([key]) => v.runs.some((r) => r[key])).map(([key, name, share]) => [name, (r) => r[key], share])];
  const head = el("tr");
  head.append(el("th", "run"), ...columns.map(([name]) => el("th", name)));
  byId("runs").querySelector("thead").replaceChildren(head);
  byId("runs").querySelector("tbody").replaceChildren(...v.runs.map((r) => {
    const tr = el("tr");
    tr.append(el("td", r.words + (r.is_baseline ? " (baseline)" : "")),
              ...columns.map(([, cell, share]) => el("td", figure(cell(r), share))));
    return tr;
  }));
}

// The narrowing: each changed figure's paired difference after each chunk, with its 95% interval ----------------

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, value] of Object.entries(attributes)) node.setAttribute(k, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function narrowingCharts(history, width) {
  const panels = new Map();
  history.forEach((h) => h.intervals.forEach((i) => {
    const key = `${i.variant}: ${i.metric}`;
    if (!panels.has(key)) panels.set(key, { share: i.share, points: [] });
    panels.get(key).points.push({ plays: h.plays, ...i });
  }));
  const charts = [...panels.entries()].slice(0, 6).map(([title, panel]) => chart(title, panel));
  if (history.length) {
    const last = history[history.length - 1];
    const said = last.widest !== null ? `the widest interval now ${last.widest.toFixed(2)}, the stop below ${width} ` +
        "(percentage points for a share, percent of the baseline for any other figure)"
      : last.intervals.length ? "the widest interval cannot be put on the width's scale (a baseline of 0)"
      : "no figure differs between the runs in any paired play yet";
    charts.push(el("p", `Each panel: a variant's paired difference from the baseline after each chunk, with its 95% ` +
                        `interval (bar), against paired plays (log scale); ${said}.`, "hint"));
  }
  return charts;
}

function chart(title, panel) {
  const W = 320, H = 170, L = 58, R = 10, T = 22, B = 30;
  const scale = panel.share ? 100 : 1;
  const pts = panel.points.filter((p) => p.lo !== null && p.hi !== null);
  const node = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "narrowing",
                            role: "img", "aria-label": title });
  node.append(svg("text", { x: 4, y: 14, class: "title" }, title + (panel.share ? " (pp)" : "")));
  if (!pts.length) return node;
  const lows = pts.map((p) => scale * p.lo).concat([0]);
  const highs = pts.map((p) => scale * p.hi).concat([0]);
  let y0 = Math.min(...lows), y1 = Math.max(...highs);
  if (y1 - y0 < 1e-9) { y0 -= 1; y1 += 1; }
  const x0 = Math.log2(pts[0].plays) - 0.5, x1 = Math.log2(pts[pts.length - 1].plays) + 0.5;
  const X = (n) => L + (W - L - R) * (Math.log2(n) - x0) / (x1 - x0);
  const Y = (y) => T + (H - T - B) * (1 - (y - y0) / (y1 - y0));
  node.append(svg("line", { x1: L, x2: W - R, y1: Y(0), y2: Y(0), class: "zero" }));
  for (const y of [y0, y1]) {
    node.append(svg("text", { x: L - 4, y: Y(y) + 4, class: "tick", "text-anchor": "end" },
                    (y >= 0 ? "+" : "") + y.toFixed(Math.abs(y1 - y0) < 1 ? 3 : 2)));
  }
  pts.forEach((p) => {
    const x = X(p.plays);
    node.append(svg("line", { x1: x, x2: x, y1: Y(scale * p.lo), y2: Y(scale * p.hi), class: "bar" }));
    node.append(svg("circle", { cx: x, cy: Y(scale * p.difference), r: 3, class: "dot" }));
  });
  const first = pts[0], last = pts[pts.length - 1];
  node.append(svg("text", { x: X(first.plays), y: H - 8, class: "tick", "text-anchor": "middle" }, plays(first.plays)));
  if (last !== first) {
    node.append(svg("text", { x: X(last.plays), y: H - 8, class: "tick", "text-anchor": "middle" }, plays(last.plays)));
  }
  return node;
}

// Start ---------------------------------------------------------------------------------------------------------

async function start() {
  const response = await fetch("/api/catalogue");
  catalogue = await response.json();
  byId("report-link").hidden = !catalogue.report;
  const select = byId("game");
  select.replaceChildren(...catalogue.games.map((g) => new Option(g.title, g.name)));
  select.addEventListener("change", () => { showGame(chosenGame()); showCost(); });
  const whoPlays = () => { showSeats(chosenGame()); showLineupDoc(chosenGame()); showCost(); };
  byId("lineup").addEventListener("change", () => { byId("seats").replaceChildren(); whoPlays(); });
  byId("by-seat").addEventListener("change", whoPlays);
  byId("players").addEventListener("change", whoPlays);
  byId("run").addEventListener("click", run);
  byId("stop").addEventListener("click", () => act("stop"));
  byId("resume").addEventListener("click", () => act("resume"));
  showGame(catalogue.games[0]);
  document.body.dataset.ready = "true";
  showCost();
}

start();

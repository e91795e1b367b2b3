// The workbench page: the catalogue of games, policies and rule parameters (from /api/catalogue).
"use strict";

const byId = (id) => document.getElementById(id);

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function shown(value) {
  if (value === true || value === false) return String(value);
  if (value === "") return '""';
  return Array.isArray(value) ? value.join(", ") : String(value);
}

function showPolicies(game) {
  const body = byId("policies").querySelector("tbody");
  body.replaceChildren(...game.policies.map((p) => {
    const tr = document.createElement("tr");
    tr.append(cell(p.name, "name"), cell(p.description),
              cell(p.params.map((q) => `${q.name} (${shown(q.default)})`).join(", ")));
    return tr;
  }));
}

function showParameters(game) {
  const body = byId("parameters").querySelector("tbody");
  body.replaceChildren(...game.parameters.map((p) => {
    const tr = document.createElement("tr");
    tr.dataset.name = p.name;
    const prov = document.createElement("td");
    const badge = document.createElement("span");
    badge.className = `prov ${p.provenance}`;
    badge.textContent = p.provenance;
    prov.append(badge);
    const what = cell(p.doc);
    if (p.source) {
      const source = document.createElement("span");
      source.className = "source";
      source.textContent = `source: ${p.source}`;
      what.append(source);
    }
    if (p.reading) {
      const reading = document.createElement("span");
      reading.className = "reading";
      reading.textContent = `the rule text reads two ways: ${p.reading}`;
      what.append(reading);
    }
    tr.append(cell(p.name, "name"), cell(shown(p.default), "default"), prov, what);
    return tr;
  }));
}

function showGame(game) {
  byId("game-title").textContent = `${game.title} (rules ${game.rules_version})`;
  const players = byId("players");
  const counts = [];
  for (let n = game.players[0]; n <= game.players[1]; n++) counts.push(n);
  players.replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
  showPolicies(game);
  showParameters(game);
}

async function start() {
  const response = await fetch("/api/catalogue");
  const { games, report } = await response.json();
  byId("report-link").hidden = !report;
  const select = byId("game");
  select.replaceChildren(...games.map((g) => new Option(g.title, g.name)));
  select.addEventListener("change", () => showGame(games.find((g) => g.name === select.value)));
  showGame(games[0]);
  document.body.dataset.ready = "true";
}

start();

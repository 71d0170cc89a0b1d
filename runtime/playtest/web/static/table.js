// The web table's page: draws one seat's view (from /api/<token>/view) and sends its
// decisions. Plain JavaScript, no build step, nothing loaded from elsewhere.
(function () {
  "use strict";

  const app = document.getElementById("app");
  const token = app.dataset.token;
  const mode = app.dataset.mode; // "seat" or "replay"
  const hostToken = new URLSearchParams(location.search).get("host");
  const unfolded = new Set(); // zones the person opened
  const SVG = "http://www.w3.org/2000/svg";
  const POLL_MS = 1200;
  const params = new URLSearchParams(location.search);
  const BOT_PAUSE_MS = Math.max(0, Number(params.get("pause") || 250)); // between watched bot moves
  const FOLDED = 24; // a zone of more cards than this starts folded

  let view = null;
  let board = null;
  let busy = false;
  let playing = false;
  let replay = null; // {id, step, steps, seats, seat}

  // ------------------------------------------------------------ helpers
  const api = window.tableApi(token); // static/api.js

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "onclick") node.addEventListener("click", value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function say(text, isError) {
    const box = document.getElementById("message");
    box.textContent = text || "";
    box.className = isError ? "error" : "";
  }

  function sleep(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms); });
  }

  function playerLabel(id) {
    const found = (view && view.seats || []).find(function (s) { return s.player === id; });
    return found ? found.label : id;
  }

  function playerColour(id) {
    const found = (board && board.players || []).find(function (p) { return p.id === id; });
    return found ? found.colour : "#444";
  }

  function offered() {
    const ids = new Map();
    if (view && view.decision && mode === "seat") {
      for (const option of view.decision.options) ids.set(option.id, option);
    }
    return ids;
  }

  function showSpec(at, line) {
    const box = document.getElementById("spec-line");
    box.textContent = "";
    if (!at) return;
    box.append(el("code", { class: "at", text: at }), el("pre", { text: line || "(spec text not at hand)" }));
  }

  // ------------------------------------------------------------ actions
  async function act(path, body) {
    if (busy) return;
    busy = true;
    app.dataset.busy = "1";
    try {
      const next = await api("POST", path, body);
      say("");
      render(next);
    } catch (err) {
      say(err.message, true);
    } finally {
      busy = false;
      delete app.dataset.busy;
    }
  }

  function choose(id) {
    if (!view || !view.decision) return;
    const instant = document.getElementById("instant");
    act("choose", { option: id, version: view.version, bots: instant ? instant.checked : true });
  }

  async function playBots() {
    playing = !playing;
    renderControls();
    while (playing && view && view.waiting_is_bot && !view.result && !view.error) {
      await act("step", { version: view.version });
      await sleep(BOT_PAUSE_MS);
    }
    playing = false;
    renderControls();
  }

  async function reload() {
    try {
      const next = mode === "replay" ? await replayView() : await api("GET", "view");
      render(next);
    } catch (err) {
      say(err.message, true);
    }
  }

  async function poll() {
    // Another person's move (or a bot stepped from another page) shows up here.
    if (mode === "seat" && view && !busy && !playing) {
      try {
        const now = await api("GET", "version");
        if (now.version !== view.version) await reload();
      } catch (err) {
        say(err.message, true);
      }
    }
    setTimeout(poll, POLL_MS);
  }

  async function listSaved() {
    const select = document.getElementById("saved");
    if (!select) return;
    try {
      const data = await api("GET", "records");
      select.textContent = "";
      for (const name of data.records) select.append(el("option", { value: name, text: name }));
      if (!data.records.length) select.append(el("option", { value: "", text: "(no saved records)" }));
    } catch (err) {
      say(err.message, true);
    }
  }

  const readUpload = window.readRecordFile; // static/api.js

  // ------------------------------------------------------------ drawing
  function render(next) {
    view = next;
    app.dataset.version = String(view.version);
    app.dataset.state = view.error ? "stopped" : view.result ? "over"
      : view.decision ? "deciding" : "waiting";
    app.dataset.decisions = String(view.decisions);
    renderStatus();
    renderControls();
    renderDecision();
    renderBoard();
    renderZones();
    renderTracks();
    renderLog();
    renderCover();
    autoBots();
  }

  function autoBots() {
    // A person plays against bots that answer at once: let them move when it is their turn.
    setTimeout(function () {
      if (mode !== "seat" || playing || busy || !view.waiting_is_bot || view.result || view.error) return;
      const instant = document.getElementById("instant");
      const people = view.seats.some(function (s) { return s.agent === "human"; });
      if (people && instant && instant.checked) act("bots", { version: view.version });
    }, 0);
  }

  function renderStatus() {
    const status = document.getElementById("status");
    let text;
    if (view.error) text = "The game stopped: " + view.error;
    else if (view.result) {
      const winner = view.result.winner, losers = view.result.losers || [];
      const outcome = winner ? playerLabel(winner) + " wins"
        : losers.length ? losers.map(playerLabel).join(" and ") + (losers.length === 1 ? " loses" : " lose")
        : "a draw";
      text = "Game over: " + outcome + " — " + view.result.reason;
    } else if (view.decision) text = "Your decision (" + view.seat_label + "): " + view.decision.prompt;
    else text = "Waiting for " + playerLabel(view.waiting_for) + (view.waiting_is_bot ? " (a bot)" : "");
    text += " · decision " + (view.decisions + (view.result ? 0 : 1));
    if (replay) text = "Step " + replay.step + " of " + replay.steps + " · " + text;
    status.textContent = text;
  }

  function renderControls() {
    if (mode !== "seat") return;
    const undo = document.getElementById("undo");
    undo.disabled = !view.can_undo;
    undo.title = view.can_undo ? "Take back your last decision" : "No undo: " + view.undo_reason;
    const botsWaiting = view.waiting_is_bot && !view.result && !view.error;
    document.getElementById("step").disabled = !botsWaiting || playing;
    const play = document.getElementById("play");
    play.disabled = !botsWaiting && !playing;
    play.textContent = playing ? "Pause bots" : "Play bots";
  }

  function renderDecision() {
    const box = document.getElementById("decision");
    box.textContent = "";
    if (!view.decision) {
      if (mode === "replay" && replay) box.append(el("p", { class: "quiet", text: "(this seat was not deciding)" }));
      return;
    }
    const d = view.decision;
    const spec = el("a", { href: "#", class: "at", text: d.at, title: d.spec,
      onclick: function (e) { e.preventDefault(); showSpec(d.at, d.spec); } });
    box.append(el("h2", { text: d.prompt }));
    if (d.about && d.about.length) {
      // What the decision is about (the entities its prompt names): cards as cards, the rest by name.
      const about = el("div", { class: "about" });
      for (const a of d.about) {
        about.append(a.kind === "card" ? cardNode(a.id, new Map())
          : el("span", { class: "about-" + a.kind, "data-about": a.id, text: a.label }));
      }
      box.append(about);
    }
    box.append(el("div", { class: "spec" }, [spec, el("code", { text: d.spec })]));
    const list = el("div", { class: "options" });
    for (const option of d.options) {
      list.append(el("button", {
        type: "button", class: "option kind-" + option.kind, "data-option": option.id,
        title: option.id, disabled: mode !== "seat",
        onclick: function () { choose(option.id); },
        text: option.label,
      }));
    }
    box.append(list);
  }

  function drawBoard() {
    const area = document.getElementById("board-area");
    const root = document.getElementById("board");
    root.textContent = "";
    if (!board.spaces.length && !Object.keys(board.zones).length) {
      area.hidden = true;
      return;
    }
    area.hidden = false;
    // The legend goes below the board, where it covers no space.
    const legendRows = board.regions.length + board.flags.length;
    const legendHeight = legendRows ? 14 * legendRows + 12 : 0;
    root.setAttribute("viewBox", "0 0 " + board.width + " " + (board.height + legendHeight));
    root.setAttribute("data-declared", board.declared ? "1" : "0");
    const where = new Map(board.spaces.map(function (s) { return [s.id, s]; }));
    const links = svg("g", { class: "links" });
    for (const [a, b] of board.links) {
      const p = where.get(a), q = where.get(b);
      links.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y }));
    }
    root.append(links);
    const w = spaceWidth(), h = Math.round(w * 0.55);
    const spaces = svg("g", { class: "spaces" });
    for (const s of board.spaces) {
      const g = svg("g", { class: "space shape-" + s.shape, id: "space-" + s.id, "data-space": s.id,
        transform: "translate(" + s.x + "," + s.y + ")" });
      const attrs = s.attrs.map(function (a) { return a[0] + " " + a[1]; }).join(", ");
      g.append(svg("title", {}, s.label + (attrs ? " (" + attrs + ")" : "") + "\n" + s.at + "\n" + s.spec));
      if (s.shape === "hex") drawHex(g, s);
      else drawBox(g, s, w, h);
      g.addEventListener("click", function () {
        if (offered().has(s.id)) choose(s.id);
      });
      spaces.append(g);
    }
    root.append(spaces);
    const flags = board.flags;
    const legend = svg("g", { class: "legend", transform: "translate(8," + (board.height + 6) + ")" });
    board.regions.forEach(function (r, i) {
      // A region with its attributes (a bonus): "North · bonus 2".
      const attrs = r.attrs.filter(function (a) { return a[1] !== "0"; })
        .map(function (a) { return a[1] === "yes" ? a[0] : a[0] + " " + a[1]; });
      legend.append(svg("rect", { x: 0, y: i * 14, width: 10, height: 10, fill: r.colour }));
      legend.append(svg("text", { x: 14, y: i * 14 + 9 }, [r.label].concat(attrs).join(" · ")));
    });
    flags.forEach(function (name, i) {
      const y = (board.regions.length + i) * 14;
      legend.append(svg("circle", { cx: 5, cy: y + 5, r: 3.5, fill: flagColour(name) }));
      legend.append(svg("text", { x: 14, y: y + 9 }, name));
    });
    root.append(legend);
  }

  function drawBox(g, s, w, h) {
      g.append(svg("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 4, fill: s.colour }));
      const label = svg("text", { class: "label", y: -h / 2 + h * 0.38, "font-size": h * 0.3 }, s.label);
      if (s.label.length * h * 0.17 > w) {
        label.setAttribute("textLength", w - 4);
        label.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
      g.append(label);
      // What the spec's board shows: values as text, a flag as a dot in the corner.
      const values = s.shows.filter(function (a) { return a[1] !== "yes"; }).map(function (a) { return a[1]; });
      if (values.length) {
        g.append(svg("text", { class: "stat", y: -h / 2 + h * 0.7, "font-size": h * 0.26 }, values.join(" · ")));
      }
      s.shows.filter(function (a) { return a[1] === "yes"; }).forEach(function (a, i) {
        g.append(svg("circle", { class: "flag", "data-flag": a[0], cx: w / 2 - 4 - i * 6, cy: -h / 2 + 4,
          r: 2.6, fill: flagColour(a[0]) }));
      });
      g.append(svg("g", { class: "marks", transform: "translate(0," + (h / 2 + 1) + ")" }));
  }

  function hexPoints(r) {
    // A pointy-top hex around 0, 0: corners at 30, 90, ... degrees.
    const out = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k - 30);
      out.push((r * Math.cos(a)).toFixed(1) + "," + (r * Math.sin(a)).toFixed(1));
    }
    return out.join(" ");
  }

  function drawHex(g, s) {
    // A hex of the board's grid: its label on top, the values the board shows in the middle
    // (a name with its value: "bonus size 2"), flags as dots, tiles (counters) drawn inside.
    const r = board.hex_size;
    g.append(svg("polygon", { points: hexPoints(r * 0.96), fill: s.colour }));
    const label = svg("text", { class: "label", y: -r * 0.45, "font-size": r * 0.2 }, s.label);
    if (s.label.length * r * 0.11 > r * 1.3) {
      label.setAttribute("textLength", r * 1.3);
      label.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    g.append(label);
    const values = s.shows.filter(function (a) { return a[1] !== "yes"; });
    values.forEach(function (a, i) {
      g.append(svg("text", { class: "stat", y: r * (0.5 + 0.2 * i), "font-size": r * 0.17 },
        a[0].replace(/_/g, " ") + " " + a[1]));
    });
    s.shows.filter(function (a) { return a[1] === "yes"; }).forEach(function (a, i, all) {
      g.append(svg("circle", { class: "flag", "data-flag": a[0], cx: (i - (all.length - 1) / 2) * r * 0.22,
        cy: -r * 0.3, r: r * 0.08, fill: flagColour(a[0]) }));
    });
    g.append(svg("g", { class: "marks", transform: "translate(0," + (r * 0.1) + ")" }));
  }

  function flagColour(name) {
    const colours = ["#7b1fa2", "#1565c0", "#2e7d32", "#ef6c00", "#c2185b"];
    const i = Math.max(0, board.flags.indexOf(name));
    return colours[i % colours.length];
  }

  function spaceWidth() {
    // Boxes as wide as the closest two spaces allow, within reason.
    let closest = Infinity;
    const s = board.spaces;
    for (let i = 0; i < s.length; i++) {
      for (let j = i + 1; j < s.length; j++) {
        const d = Math.hypot(s[i].x - s[j].x, s[i].y - s[j].y);
        if (d > 1 && d < closest) closest = d;
      }
    }
    if (!isFinite(closest)) closest = 80;
    return Math.max(30, Math.min(90, closest * 0.95));
  }

  function renderBoard() {
    if (!board) return;
    const ids = offered();
    const w = spaceWidth();
    for (const s of board.spaces) {
      const g = document.getElementById("space-" + s.id);
      if (!g) continue;
      g.classList.toggle("option", ids.has(s.id));
      g.classList.toggle("about", !!(view.decision && (view.decision.about || []).some(function (a) { return a.id === s.id; })));
      const marks = g.querySelector(".marks");
      marks.textContent = "";
      const list = (view.marks[s.id] || []).filter(function (m) {
        return !board.counters.length || board.counters.includes(m[3]);
      });
      if (s.shape === "hex") {
        drawTiles(marks, list);
        continue;
      }
      const size = w / 3;
      list.forEach(function (m, i) {
        const x = (i - (list.length - 1) / 2) * (size + 2);
        const colour = m[1] ? playerColour(m[1]) : "#555";
        const mark = svg("g", { class: "mark", "data-player": m[1] || "", transform: "translate(" + x + ",0)" });
        mark.append(svg("title", {}, m[0] + (m[1] ? " (" + playerLabel(m[1]) + ")" : "") + ": " + valueText(m[3], m[2])));
        mark.append(svg("rect", { x: -size / 2, y: 0, width: size, height: size, rx: 2, fill: colour }));
        mark.append(svg("text", { y: size * 0.75, "font-size": size * 0.75 }, String(m[2])));
        marks.append(mark);
      });
    }
  }

  function drawTiles(marks, list) {
    // The counters on a hex, as tiles: a disc in the owner's colour (grey when shared)
    // with the counter's initial, and its number when more than 1.
    const r = board.hex_size * 0.3;
    list.forEach(function (m, i) {
      const x = (i - (list.length - 1) / 2) * (r * 2.1);
      const colour = m[1] ? playerColour(m[1]) : "#4a78b5";
      const mark = svg("g", { class: "mark tile", "data-player": m[1] || "", "data-counter": m[3],
        transform: "translate(" + x + ",0)" });
      mark.append(svg("title", {}, m[0] + (m[1] ? " (" + playerLabel(m[1]) + ")" : "") + ": " + m[2]));
      mark.append(svg("circle", { r: r, fill: colour, stroke: "#222", "stroke-width": 1 }));
      mark.append(svg("text", { y: r * 0.4, "font-size": r * 1.1 }, m[0].charAt(0) + (m[2] > 1 ? m[2] : "")));
      marks.append(mark);
    });
  }

  function cardNode(id, ids) {
    const info = view.cards[id] || { label: id, attrs: [], text: "", at: "", spec: "" };
    const option = ids.get(id);
    const attrs = info.attrs.map(function (a) { return a[1] === "yes" ? a[0] : a[0] + " " + a[1]; }).join(" · ");
    const node = el("div", { class: "card" + (option ? " option" : ""), "data-card": id,
      title: info.label + (attrs ? "\n" + attrs : "") + (info.text ? "\n" + info.text : "") + "\n" + info.at
        + (info.spec ? "\n" + info.spec : "") });
    node.append(el("div", { class: "card-label", text: info.label }));
    if (info.text) node.append(el("div", { class: "card-text", text: info.text }));
    if (attrs) node.append(el("div", { class: "card-attrs", text: attrs }));
    const marks = view.marks[id] || [];
    if (marks.length) {
      node.append(el("div", { class: "card-marks",
        text: marks.map(function (m) { return m[0] + " " + valueText(m[3], m[2]); }).join(" · ") }));
    }
    node.addEventListener("click", function (e) {
      if (option) choose(id);
      else showSpec(info.at, info.spec);
      e.stopPropagation();
    });
    return node;
  }

  function zoneNode(zone, ids) {
    const own = zone.owner === view.seat;
    const node = el("div", { class: "zone vis-" + zone.visibility + (own ? " own" : ""), "data-zone": zone.key });
    const count = zone.cards ? zone.cards.length : zone.count;
    const offersOne = zone.cards && zone.cards.some(function (id) { return ids.has(id); });
    const folded = zone.cards && count > FOLDED && !offersOne && !unfolded.has(zone.key);
    const head = el("h3", { text: zone.label + " (" + count + ")" });
    if (zone.cards && count > FOLDED) {
      head.append(el("button", { type: "button", class: "fold", text: folded ? "show" : "hide",
        onclick: function () {
          if (folded) unfolded.add(zone.key); else unfolded.delete(zone.key);
          renderZones();
        } }));
    }
    node.append(head);
    const cards = el("div", { class: "cards" });
    if (folded) {
      cards.append(el("div", { class: "card back", text: count + " cards" }));
    } else if (zone.cards) {
      for (const id of zone.cards) cards.append(cardNode(id, ids));
    } else if (zone.count) {
      const shown = zone.shown || [];  // cards of the hidden zone a rule showed this seat
      for (const id of shown) cards.append(cardNode(id, ids));
      if (zone.count > shown.length) {
        cards.append(el("div", { class: "card back", text: (zone.count - shown.length) + " hidden" }));
      }
    }
    node.append(cards);
    return node;
  }

  function renderZones() {
    const ids = offered();
    const placed = document.getElementById("placed-zones");
    const loose = document.getElementById("zones");
    placed.textContent = "";
    loose.textContent = "";
    const positions = board ? board.zones : {};
    const mine = [], others = [];
    for (const zone of view.zones) {
      const pos = positions[zone.key];
      const count = zone.cards ? zone.cards.length : zone.count;
      if (pos) {
        const node = zoneNode(zone, ids);
        node.classList.add("placed");
        node.style.left = (100 * pos[0] / board.width) + "%";
        node.style.top = (100 * pos[1] / board.height) + "%";
        // grows sideways only into its room (runtime/board.py zone_room), then its cards scroll
        node.style.maxWidth = (100 * board.zone_room[zone.key] / board.width) + "%";
        placed.append(node);
      } else if (count || (zone.owner === view.seat && zone.visibility === "owner")) {
        (zone.owner === view.seat ? mine : others).push(zoneNode(zone, ids));
      }
    }
    for (const node of mine.concat(others)) loose.append(node);
  }

  // A track's or counter's value as a person reads it: a flag's as yes or no (runtime/board.py value_text).
  function valueText(name, value) {
    if (board && (board.yes_no || []).includes(name)) return value ? "yes" : "no";
    return String(value);
  }

  function renderTracks() {
    const box = document.getElementById("tracks");
    box.textContent = "";
    const labels = new Map((board ? board.tracks : []).map(function (t) { return [t.name, t.label]; }));
    // One column per player for the tracks each player has; a shared track spans them.
    const players = view.seats.map(function (s) { return s.player; });
    const table = el("table", {}, [el("caption", { text: "Tracks" })]);
    const perPlayer = Object.values(view.view.tracks).some(function (v) { return v !== null && typeof v === "object"; });
    if (perPlayer) {
      table.append(el("tr", {}, [el("th", {})].concat(players.map(function (p) {
        return el("th", { class: "player", text: playerLabel(p), style: "color:" + playerColour(p) });
      }))));
    }
    for (const [name, value] of Object.entries(view.view.tracks)) {
      const cells = [el("th", { text: labels.get(name) || name })];
      if (value !== null && typeof value === "object") {
        for (const p of players) cells.push(el("td", { "data-player": p, text: valueText(name, value[p]) }));
      } else {
        cells.push(el("td", { colspan: perPlayer ? players.length : 1, text: valueText(name, value) }));
      }
      table.append(el("tr", { "data-track": name }, cells));
    }
    box.append(table);
    const effects = document.getElementById("effects");
    effects.textContent = "";
    const inEffect = view.view.effects;
    if (inEffect.length) {
      const list = el("ul", {}, inEffect.map(function (e) { return el("li", { text: e }); }));
      const box = el("details", { open: inEffect.length <= 8 },
        [el("summary", { text: "In effect (" + inEffect.length + ")" }), list]);
      effects.append(box);
    }
  }

  function renderLog() {
    const list = document.getElementById("log");
    list.textContent = "";
    for (const line of view.log) {
      const item = el("li", { class: (line.own ? "own " : "") + (line.private ? "private " : "") + (line.kind || "rule") },
        [el("span", { text: line.text })]);
      if (line.at) {
        item.append(el("a", { href: "#", class: "at", text: line.at.replace(/^.*\//, ""), title: line.spec,
          onclick: function (e) { e.preventDefault(); showSpec(line.at, line.spec); } }));
      }
      list.append(item);
    }
    list.scrollTop = list.scrollHeight;
  }

  function renderCover() {
    const cover = document.getElementById("cover");
    if (!cover) return;
    const other = view.waiting_for && view.waiting_for !== view.seat && !view.waiting_is_bot;
    if (hostToken && other && !view.result && !view.error) {
      cover.hidden = false;
      document.getElementById("cover-text").textContent = "Pass the device to " + playerLabel(view.waiting_for) + ".";
      document.getElementById("cover-link").href = "/host/" + hostToken + "/play";
      document.getElementById("cover-link").textContent = "I am " + playerLabel(view.waiting_for);
    } else {
      cover.hidden = true;
    }
  }

  // ------------------------------------------------------------ replay viewer
  async function replayView() {
    const query = "?step=" + replay.step + (replay.seat ? "&seat=" + encodeURIComponent(replay.seat) : "");
    const data = await api("GET", "replay/" + replay.id + query);
    replay.seat = data.replay.seat;
    return data;
  }

  async function openReplay(body) {
    try {
      const data = await api("POST", "replay", body);
      replay = { id: data.replay, step: 0, steps: data.steps, seats: data.seats, seat: null };
      const select = document.getElementById("as-seat");
      select.textContent = "";
      for (const s of data.seats) select.append(el("option", { value: s, text: s }));
      document.getElementById("stepper").hidden = false;
      await replayGo(0);
    } catch (err) {
      say(err.message, true);
    }
  }

  async function replayGo(step) {
    if (!replay) return;
    replay.step = Math.max(0, Math.min(replay.steps, step));
    document.getElementById("step-text").textContent = replay.step + " / " + replay.steps;
    await reload();
    app.dataset.step = String(replay.step);
  }

  // ------------------------------------------------------------ start
  function wireSeat() {
    document.getElementById("undo").addEventListener("click", function () {
      act("undo", { version: view.version });
    });
    document.getElementById("step").addEventListener("click", function () {
      act("step", { version: view.version });
    });
    document.getElementById("play").addEventListener("click", playBots);
    document.getElementById("save").addEventListener("click", async function () {
      const name = document.getElementById("save-name").value.trim();
      try {
        const data = await api("POST", "save", { name: name });
        say("Saved as " + data.saved + ".");
        await listSaved();
      } catch (err) {
        say(err.message, true);
      }
    });
  }

  function wireReplay() {
    document.getElementById("open-saved").addEventListener("click", function () {
      const name = document.getElementById("saved").value;
      if (!name) return say("no saved record", true);
      openReplay({ name: name });
    });
    const upload = document.getElementById("upload"); // the host's viewer only
    if (upload) upload.addEventListener("change", async function (e) {
      try {
        openReplay({ record: await readUpload(e.target) });
      } catch (err) {
        say(err.message, true);
      }
    });
    document.getElementById("first").addEventListener("click", function () { replayGo(0); });
    document.getElementById("back").addEventListener("click", function () { replayGo(replay.step - 1); });
    document.getElementById("forward").addEventListener("click", function () { replayGo(replay.step + 1); });
    document.getElementById("last").addEventListener("click", function () { replayGo(replay.steps); });
    document.getElementById("as-seat").addEventListener("change", function (e) {
      replay.seat = e.target.value;
      reload();
    });
  }

  async function start() {
    try {
      board = await api("GET", "board");
      drawBoard();
      if (mode === "seat") {
        wireSeat();
        render(await api("GET", "view"));
        setTimeout(poll, POLL_MS);
      } else {
        wireReplay();
      }
      await listSaved();
      app.dataset.ready = "1";
    } catch (err) {
      say(err.message, true);
    }
  }

  start();
})();

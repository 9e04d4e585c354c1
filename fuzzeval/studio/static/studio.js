// fuzzeval studio: the page asks the server (the library) for every number it shows;
// this file only draws and sends. Plain JavaScript, no library.
"use strict";
const TOKEN = document.querySelector('meta[name="studio-token"]').content;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const state = { file: null, text: "", path: "", stamp: null, writable: false, rb: null,
                values: {}, seq: 0, view: "editor", dirty: false, problems: [] };

async function api(url, body) {
  const init = { headers: { "x-studio-token": TOKEN } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) { const e = new Error(data.error || res.statusText); e.data = data; throw e; }
  return data;
}

function say(text, bad) {
  $("status").textContent = text;
  $("status").className = bad ? "bad" : "";
}

function el(tag, attrs, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4))
                                   : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// --- files ------------------------------------------------------------------------------
async function loadFiles(select) {
  const data = await api("/api/files");
  const ul = $("files");
  ul.replaceChildren();
  for (const f of data.files) {
    const li = el("li", { "data-testid": "file-item", "data-id": f.id, title: f.folder });
    li.textContent = f.name.replace(/\.ya?ml$/, "");
    if (!f.writable) li.append(" ", el("span", { class: "ro" }, "read-only"));
    li.onclick = () => openFile(f.id);
    ul.append(li);
  }
  const folders = $("save-as-folder");
  // the folder's short name; its full path as the tooltip
  folders.replaceChildren(...data.folders.map((f) => el("option", { value: f.index, title: f.folder }, f.name)));
  folders.title = data.folders.length ? data.folders[0].folder : "";
  $("new").disabled = !data.folders.length;
  folders.onchange = () => { folders.title = folders.selectedOptions[0].title; };
  if (select) openFile(select);
}

async function openFile(id) {
  if (state.dirty && !confirm("Discard the changes to " + state.path + "?")) return;
  const f = await api("/api/file?id=" + encodeURIComponent(id));
  Object.assign(state, { file: f.id, path: f.path, stamp: f.stamp, writable: f.writable,
                         values: {}, dirty: false, opened: f.text });
  $("conflict").hidden = true;
  for (const li of $("files").children) li.classList.toggle("on", li.dataset.id === id);
  $("file-name").textContent = f.path.split("/").pop();
  $("file-name").title = f.path;
  $("editor").value = f.text;
  setText(f.text, false);
  say("opened " + f.path.split("/").pop());
}

function setText(text, dirty) {
  state.text = text;
  paint();
  state.dirty = dirty;
  $("save").disabled = !state.writable || !state.file;
  $("save-as").disabled = !state.file;
  return check();
}

// --- editor -----------------------------------------------------------------------------
// The text is drawn twice: a transparent textarea (what is typed) over a <pre> with the
// same text coloured; the gutter beside it numbers the lines and marks the problems'.
function escape(t) { return t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

const NUMBER = /(^|[\s\[,:(])(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=$|[\s\],)])/g;
function highlightLine(line) {
  const hash = line.search(/(^|\s)#/);  // a comment: # at the start or after a space
  let code = hash < 0 ? line : line.slice(0, hash), comment = hash < 0 ? "" : line.slice(hash);
  let out = "";
  const key = /^(\s*(?:-\s+)?)([^\s#:"'][^:#]*?)(:)(?=\s|$)/.exec(code);
  if (key) {
    out = escape(key[1]) + `<span class="hl-key">${escape(key[2])}</span>:`;
    code = code.slice(key[0].length);
  }
  out += escape(code).replace(NUMBER, '$1<span class="hl-number">$2</span>');
  return out + (comment ? `<span class="hl-comment">${escape(comment)}</span>` : "");
}

function paint() {
  const lines = $("editor").value.split("\n");
  $("highlight").innerHTML = lines.map(highlightLine).join("\n") + "\n";
  const marks = {};
  for (const p of state.problems) {
    if (!p.line) continue;
    const m = marks[p.line] ||= { severity: "warning", text: [] };
    if (p.severity === "error") m.severity = "error";
    m.text.push(p.text);
  }
  $("gutter").replaceChildren(...lines.map((_, i) => {
    const m = marks[i + 1];
    return m ? el("span", { class: m.severity, title: m.text.join("\n"),
                            "data-testid": "gutter-mark", "data-line": i + 1 }, i + 1)
             : el("span", {}, i + 1);
  }));
  scrolled();
}

function scrolled() {
  const ed = $("editor");
  $("highlight").scrollTop = $("gutter").scrollTop = ed.scrollTop;
  $("highlight").scrollLeft = ed.scrollLeft;
}

let timer = null;
function typed() {
  paint();
  clearTimeout(timer);
  timer = setTimeout(() => { timer = null; setText($("editor").value, true); }, 60);
}

async function flush() {  // a save takes what is typed, checked or not yet
  if (timer !== null) { clearTimeout(timer); timer = null; await setText($("editor").value, true); }
}

async function check() {
  const seq = ++state.seq;
  const data = await api("/api/check", { text: state.text, path: state.path });
  if (seq !== state.seq) return;  // a newer keystroke's answer is coming
  state.problems = data.problems;
  paint();
  const ul = $("problems");
  ul.replaceChildren(...data.problems.map((p) => {
    const li = el("li", { "data-testid": "problem", "data-line": p.line ?? "",
                          class: p.severity }, p.text);
    li.onclick = () => goToLine(p.line);
    return li;
  }));
  const errors = data.problems.filter((p) => p.severity === "error").length;
  $("summary").className = data.ok ? "" : "bad";
  $("summary").textContent = data.ok
    ? `ok: ${data.rulebase.inputs.length} inputs, ${data.rulebase.rules.length} rules` +
      (data.rulebase.made_by ? `; made by: ${data.rulebase.made_by}` : "")
    : `${errors} error(s): the views show the last text that loaded`;
  if (data.ok) { state.rb = data.rulebase; drawViews(); }
}

function goToLine(line) {
  if (!line) return;
  const ed = $("editor");
  const lines = ed.value.split("\n");
  const start = lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
  ed.focus();
  ed.setSelectionRange(start, start + lines[line - 1].length);
}

// --- rules view -------------------------------------------------------------------------
function number(x) { return Number(x.toPrecision(6)).toString(); }

function buildInputs() {
  const box = $("inputs");
  box.replaceChildren();
  for (const v of state.rb.inputs) {
    if (!(v.name in state.values) || state.values[v.name] < v.lo || state.values[v.name] > v.hi)
      state.values[v.name] = (v.lo + v.hi) / 2;
    const step = (v.hi - v.lo) / 1000;
    const slider = el("input", { type: "range", min: v.lo, max: v.hi, step,
                                 value: state.values[v.name], "data-testid": "slider-" + v.name });
    const box2 = el("input", { type: "number", step: "any", value: state.values[v.name],
                               "data-testid": "number-" + v.name });
    slider.oninput = () => { box2.value = slider.value; setValue(v.name, +slider.value); };
    box2.onchange = () => {
      if (box2.value === "" || !isFinite(+box2.value)) return;
      slider.value = box2.value; setValue(v.name, +box2.value);
    };
    const label = el("label", { title: v.description }, v.name);
    box.append(el("div", { class: "input-row" }));
    box.lastChild.append(label, slider, box2, el("span", { class: "hint" },
                         `[${number(v.lo)}, ${number(v.hi)}]`));
  }
}

function setValue(name, x) { state.values[name] = x; explain(); if (state.view === "surface") drawSurface(); }

let explaining = 0;
async function explain() {
  if (!state.rb) return;
  const seq = ++explaining;
  let data;
  try {
    data = await api("/api/explain", { text: state.text, path: state.path, inputs: state.values });
  } catch (e) { say(e.message, true); return; }
  if (seq !== explaining) return;
  const grade = $("grade");
  grade.textContent = data.grade.toFixed(4);
  grade.dataset.value = data.grade;
  $("defuzzifier").textContent = `(${data.defuzzifier}${data.fired ? "" : ", no rule fired: the default"})`;
  $("clipped").textContent = data.clipped.length ? "clipped to range: " + data.clipped.join(", ") : "";
  const body = document.querySelector('[data-testid="rules"]');
  body.replaceChildren(...data.rules.map((r) => {
    const tr = el("tr", { "data-testid": "rule-" + (r.index + 1) });
    tr.append(el("td", { class: "num" }, r.index + 1), el("td", {}, r.text),
              el("td", { class: "num" }, number(r.weight)),
              el("td", { class: "num", "data-testid": "strength-" + (r.index + 1),
                         "data-value": r.strength }, r.strength.toFixed(4)));
    const bar = el("td", {});
    bar.append(el("div", { class: "bar", style: `width:${Math.round(r.strength * 120)}px` }));
    tr.append(bar);
    return tr;
  }));
  drawOutput(data);
}

function axes(svg, v, w, h, pad) {
  const x = (t) => pad + (t - v.lo) / (v.hi - v.lo) * (w - 2 * pad);
  const y = (m) => h - 22 - m * (h - 56);
  svg.append(el("svg:line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: "#999" }));
  for (let i = 0; i <= 4; i++) {
    const t = v.lo + (v.hi - v.lo) * i / 4;
    svg.append(el("svg:text", { x: x(t), y: h - 6, "text-anchor": "middle" }, number(t)));
  }
  return [x, y];
}

function outline(v, p) {  // a term's corners: a vertical side where two points meet
  const [l, c, r] = p;
  return [[l, l === c ? 1 : 0], [c, 1], [r, r === c ? 1 : 0]];
}

function drawOutput(data) {  // the library's output sets (fuzzeval.engine.output_sets), drawn
  const svg = $("output-plot"), v = state.rb.output, w = 520, h = 150, pad = 24;
  const o = data.output;
  svg.replaceChildren();
  const [x, y] = axes(svg, v, w, h, pad);
  if (o.defuzzifier === "centroid") {
    svg.append(el("svg:text", { x: pad, y: 12 }, `output ${v.name}: clipped terms, aggregate (red)`));
    const at = (values) => values.map((m, i) => `${x(o.grid[i])},${y(m)}`).join(" ");
    for (const t of v.terms) {
      svg.append(el("svg:polyline", { class: "term", points: outline(v, t.points).map(([p, m]) => `${x(p)},${y(m)}`).join(" ") }));
      svg.append(el("svg:text", { x: x(t.points[1]), y: y(1) - 3, "text-anchor": "middle" }, t.name));
    }
    const line = at(o.aggregate);
    svg.append(el("svg:polygon", { class: "clip", points: `${x(v.lo)},${y(0)} ${line} ${x(v.hi)},${y(0)}` }));
    svg.append(el("svg:polyline", { class: "aggregate", points: line }));
  } else {  // singletons: a stem per term, as high as its summed strength
    const sum = o.defuzzifier === "weighted_sum";
    svg.append(el("svg:text", { x: pad, y: 12 }, `output ${v.name}: each term's summed strength (red)` +
      (sum ? "; its contribution (strength × value) written above" : "")));
    const top = Math.max(1, ...Object.values(o.strength));
    for (const t of v.terms) {
      const c = t.points[1], s = o.strength[t.name];
      svg.append(el("svg:line", { x1: x(c), x2: x(c), y1: y(0), y2: y(1), class: "term" }));
      svg.append(el("svg:line", { x1: x(c), x2: x(c), y1: y(0), y2: y(s / top), class: "aggregate" }));
      svg.append(el("svg:text", { x: x(c), y: y(1) - 3, "text-anchor": "middle" },
        sum ? `${t.name} ${number(o.contribution[t.name])}` : t.name));
    }
  }
  svg.append(el("svg:line", { class: "crisp", x1: x(data.grade), x2: x(data.grade), y1: y(0), y2: y(1.05) }));
}

// --- variables view ---------------------------------------------------------------------
function drawVariables() {
  const box = $("variables");
  box.replaceChildren();
  for (const v of state.rb.inputs) {
    const w = 560, h = 150, pad = 26;
    const svg = el("svg:svg", { width: w, height: h, class: "variable", "data-testid": "variable-" + v.name });
    const [x, y] = axes(svg, v, w, h, pad);
    svg.append(el("svg:text", { x: pad, y: 12 }, `${v.name} [${number(v.lo)}, ${number(v.hi)}]`));
    for (const t of v.terms) {
      const poly = el("svg:polyline", { class: "term" });
      const draw = (p) => poly.setAttribute("points", outline(v, p).map(([q, m]) => `${x(q)},${y(m)}`).join(" "));
      draw(t.points);
      svg.append(poly, el("svg:text", { x: x(t.points[1]), y: y(1) - 11, "text-anchor": "middle" }, t.name));
      ["left", "peak", "right"].forEach((name, k) => {
        const p = t.points.slice();
        const height = outline(v, p)[k][1];
        const hd = el("svg:circle", { cx: x(p[k]), cy: y(height), r: t.adjust.includes(name) ? 7 : 5,
          class: "handle" + (t.adjust.includes(name) ? " adjust" : ""),
          "data-testid": `point-${v.name}-${t.name}-${name}`, "data-value": p[k] });
        hd.append(el("svg:title", {}, `${v.name}.${t.name}.${name} = ${number(p[k])}` +
                      (t.adjust.includes(name) ? " (adjust)" : "")));
        drag(svg, hd, v, x, (value) => { p[k] = value; draw(p); }, (value) => move(v.name, t.name, name, value));
        svg.append(hd);
      });
    }
    box.append(svg);
  }
}

function drag(svg, handle, v, x, preview, done) {
  let moving = false, value = null;
  const toValue = (ev) => {
    const box = svg.getBoundingClientRect();
    const frac = (ev.clientX - box.left - x(v.lo)) / (x(v.hi) - x(v.lo));
    const raw = v.lo + Math.min(1, Math.max(0, frac)) * (v.hi - v.lo);
    return Number(raw.toPrecision(4));
  };
  handle.addEventListener("pointerdown", (ev) => { moving = true; value = null; handle.setPointerCapture(ev.pointerId); ev.preventDefault(); });
  handle.addEventListener("pointermove", (ev) => {
    if (!moving) return;
    value = toValue(ev);
    handle.setAttribute("cx", x(value));
    preview(value);
  });
  handle.addEventListener("pointerup", () => { moving = false; if (value !== null) done(value); });
}

async function move(variable, term, point, value) {
  try {
    const data = await api("/api/move", { text: state.text, path: state.path, variable, term, point, value });
    $("editor").value = data.text;
    await setText(data.text, true);
    say(`${variable}.${term}.${point} = ${number(value)}`);
  } catch (e) { say(e.message, true); drawVariables(); }
}

// --- surface ----------------------------------------------------------------------------
function fillAxes() {
  const names = state.rb.inputs.map((v) => v.name);
  for (const [id, k] of [["surface-x", 0], ["surface-y", 1]]) {
    const s = $(id), keep = s.value;
    s.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    s.value = names.includes(keep) ? keep : names[Math.min(k, names.length - 1)];
  }
}

function colour(f) {  // dark blue (low) to yellow (high)
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const s = Math.min(3.999, Math.max(0, f * 4)), i = Math.floor(s), t = s - i;
  return stops[i].map((c, j) => Math.round(c + (stops[i + 1][j] - c) * t));
}

let surfacing = 0;
async function drawSurface() {
  if (!state.rb || state.rb.inputs.length < 2) {
    $("surface-scale").textContent = "the surface needs two inputs"; return;
  }
  const seq = ++surfacing;
  const data = await api("/api/surface", { text: state.text, path: state.path,
    x: $("surface-x").value, y: $("surface-y").value, held: state.values, n: 100 });
  if (seq !== surfacing) return;
  const cv = $("surface"), g = cv.getContext("2d"), pad = 48, side = cv.height - 56;
  g.clearRect(0, 0, cv.width, cv.height);
  const img = g.createImageData(100, 100);
  const lo = data.min, hi = data.max > data.min ? data.max : data.min + 1;  // colours span the grades
  data.z.forEach((row, j) => row.forEach((z, i) => {
    const c = colour((z - lo) / (hi - lo)), k = ((99 - j) * 100 + i) * 4;
    img.data.set([...c, 255], k);
  }));
  const tmp = document.createElement("canvas");
  tmp.width = tmp.height = 100;
  tmp.getContext("2d").putImageData(img, 0, 0);
  g.imageSmoothingEnabled = false;
  g.drawImage(tmp, pad, 10, side, side);
  const xs = data.x, ys = data.y, n = xs.length;  // grid values at the cells' centres
  const px = (x) => pad + (0.5 + (n - 1) * (x - xs[0]) / (xs[n - 1] - xs[0])) * side / n;
  const py = (y) => 10 + side - (0.5 + (n - 1) * (y - ys[0]) / (ys[n - 1] - ys[0])) * side / n;
  g.fillStyle = "#333"; g.strokeStyle = "#333"; g.font = "11px sans-serif"; g.textAlign = "center";
  for (const t of data.ticks.x) {
    g.fillRect(px(t), 10 + side, 1, 4); g.fillText(number(t), px(t), 10 + side + 15);
  }
  g.textAlign = "right";
  for (const t of data.ticks.y) {
    g.fillRect(pad - 4, py(t), 4, 1); g.fillText(number(t), pad - 6, py(t) + 4);
  }
  g.textAlign = "center";
  g.fillText($("surface-x").value, pad + side / 2, 10 + side + 30);
  g.save(); g.translate(12, 10 + side / 2); g.rotate(-Math.PI / 2);
  g.fillText($("surface-y").value, 0, 0); g.restore();
  const svg = $("surface-contours");
  svg.replaceChildren();
  for (const c of data.contours) {
    let longest = [];
    for (const line of c.lines) {
      if (line.length > longest.length) longest = line;
      const d = line.map(([x, y], k) => `${k ? "L" : "M"}${px(x).toFixed(1)} ${py(y).toFixed(1)}`);
      svg.append(el("svg:path", { class: "contour", d: d.join(""), "data-level": c.level }));
    }
    if (longest.length) {
      const [x, y] = longest[Math.floor(longest.length / 2)];
      svg.append(el("svg:text", { class: "contour-label", x: px(x), y: py(y) + 3,
        "text-anchor": "middle" }, number(c.level)));
    }
  }
  for (let k = 0; k < side; k++) {  // the colour bar: low at the bottom
    const [r, gr, b] = colour(k / (side - 1));
    g.fillStyle = `rgb(${r},${gr},${b})`;
    g.fillRect(pad + side + 14, 10 + side - 1 - k, 14, 1);
  }
  g.fillStyle = "#333"; g.textAlign = "left";
  g.fillText(number(data.max), pad + side + 32, 18);
  g.fillText(number(data.min), pad + side + 32, 10 + side);
  cv.dataset.drawn = "1";
  $("surface-scale").textContent = `${data.output}: ${number(data.min)} (dark) to ${number(data.max)} ` +
    `(light); its range is [${number(data.range[0])}, ${number(data.range[1])}]`;
}

// --- history ----------------------------------------------------------------------------
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                 "#bcbd22", "#17becf"];

async function loadHistories() {
  const data = await api("/api/histories");
  const s = $("history-db"), keep = s.value;
  s.replaceChildren(...data.databases.map((f) => el("option", { value: f.id, title: f.folder }, f.name)));
  if (data.databases.some((f) => f.id === keep)) s.value = keep;
  loadCompare().catch((e) => say(e.message, true));
  if (!data.databases.length) {
    $("history-summary").textContent = "no database (.sqlite) in the folders given";
    $("history").replaceChildren();
    $("history-curve").replaceChildren();
    return;
  }
  drawHistory();
}

// a line chart: series of {label, ys, low, high (a band, optional), dashed}; the x axis
// labelled at the server's ticks (whole numbers: rounds, evaluations, games)
function drawCurve(title, xlabel, xs, ticks, series) {
  const w = 600, h = 200, pad = 64, right = 190;
  const svg = el("svg:svg", { width: w + right, height: h, "data-testid": "curve" });
  const all = series.flatMap((c) => c.ys.concat(c.low || [], c.high || [])).filter((u) => u !== null);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const x = (t) => pad + (x1 > x0 ? (t - x0) / (x1 - x0) : 0.5) * (w - pad - 10);
  const y = (u) => h - 24 - (u - lo) / (hi - lo) * (h - 50);
  svg.append(el("svg:text", { x: pad, y: 12 }, `${title} (x: ${xlabel})`));
  svg.append(el("svg:line", { x1: pad, x2: w - 10, y1: h - 24, y2: h - 24, stroke: "#999" }));
  for (const t of ticks)
    svg.append(el("svg:text", { x: x(t), y: h - 8, "text-anchor": "middle", "data-testid": "curve-tick" },
                              number(t)));
  for (const u of [lo, (lo + hi) / 2, hi])
    svg.append(el("svg:text", { x: pad - 6, y: y(u) + 4, "text-anchor": "end" }, Number(u.toPrecision(4)).toString()));
  series.forEach((c, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const at = (ys) => ys.map((u, i) => (u === null ? null : `${x(xs[i])},${y(u)}`)).filter(Boolean);
    if (c.low) svg.append(el("svg:polygon", { fill: colour, "fill-opacity": 0.15, stroke: "none",
      points: at(c.low).concat(at(c.high).reverse()).join(" ") }));
    svg.append(el("svg:polyline", { fill: "none", stroke: colour, "stroke-width": 2,
      "stroke-dasharray": c.dashed ? "4 3" : "", points: at(c.ys).join(" ") }));
    c.ys.forEach((u, i) => {  // a dot a point: a curve of one point still shows
      if (u !== null) svg.append(el("svg:circle", { cx: x(xs[i]), cy: y(u), r: 3, fill: colour }));
    });
    svg.append(el("svg:text", { x: w + 4, y: 28 + 16 * k, fill: colour }, c.label));
  });
  $("history-curve").replaceChildren(svg);
}

async function drawHistory() {
  let data;
  try { data = await api("/api/run?id=" + encodeURIComponent($("history-db").value)); }
  catch (e) {
    $("history-summary").textContent = e.message;
    for (const id of ["history", "history-curve"]) $(id).replaceChildren();
    return;
  }
  $("history-made-by").textContent = data.made_by ? `the start rule base made by: ${data.made_by}` : "";
  $("history").replaceChildren();
  if (data.kind === "tuning") {
    const g = data.generations;
    $("history-summary").textContent = `tuning ${data.tuning} of ${data.rulebase} (${data.game}): ` +
      `${g.length} generation(s), ${g.length ? g[g.length - 1].evaluations : 0} evaluations`;
    if (g.length) drawCurve("value of the best so far and of each generation's mean", "evaluations",
      g.map((r) => r.evaluations), data.ticks, [{ label: "best so far", ys: g.map((r) => r.best) },
                                    { label: "generation's mean", ys: g.map((r) => r.mean), dashed: true }]);
    return;
  }
  if (data.kind === "learn") {
    const b = data.blocks, m = b.filter((r) => r.measure !== null);
    $("history-summary").textContent = `learn ${data.learn} (${data.game}): ${b.length} block(s), ` +
      `${b.length ? b[b.length - 1].games : 0} games`;
    if (b.length) drawCurve("mean payoff a game: the learned player measured (95 % band), the learning seats", "games",
      b.map((r) => r.games), data.ticks, [
        { label: "learned player", ys: b.map((r) => r.measure), low: b.map((r) => (r.measure === null ? null : r.measure - r.measure_half)),
          high: b.map((r) => (r.measure === null ? null : r.measure + r.measure_half)) },
        { label: "learning seats", ys: b.map((r) => r.mean), dashed: true }]);
    if (!m.length) $("history-curve").append(el("p", {}, "no block measured"));
    return;
  }
  const rounds = data.rounds.length;
  const wins = data.rounds.map((r) => `${r.wins}/${r.games}`).join(", ");
  $("history-summary").textContent = `calibration ${data.calibration} of ${data.rulebase} ` +
    `(${data.game} against ${data.opponent}): ${rounds} round(s)` + (rounds ? `, won ${wins}` : "");
  if (rounds) drawCurve("win rate a round (95 % Wilson band)", "round", data.rounds.map((r) => r.round + 1),
    data.ticks, [{ label: "win rate", ys: data.rounds.map((r) => r.win_rate), low: data.rounds.map((r) => r.low),
       high: data.rounds.map((r) => r.high) }]);
  else $("history-curve").replaceChildren();
  const box = $("history");
  for (const v of data.variables) {
    const w = 600, h = 190, pad = 64, right = 150;
    const svg = el("svg:svg", { width: w + right, height: h, "data-testid": "drift-" + v.name });
    const all = v.paths.flatMap((p) => p.positions.concat(p.targets.filter((t) => t !== null)));
    let lo = Math.min(...all), hi = Math.max(...all);
    if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
    const x = (r) => pad + r / Math.max(1, rounds) * (w - pad - 10);
    const y = (u) => h - 24 - (u - lo) / (hi - lo) * (h - 50);
    svg.append(el("svg:text", { x: pad, y: 12 }, v.name + " (x: rounds)"));
    svg.append(el("svg:line", { x1: pad, x2: w - 10, y1: h - 24, y2: h - 24, stroke: "#999" }));
    for (let r = 0; r <= rounds; r++)
      svg.append(el("svg:text", { x: x(r), y: h - 8, "text-anchor": "middle" }, r));
    for (const u of [lo, (lo + hi) / 2, hi])
      svg.append(el("svg:text", { x: pad - 6, y: y(u) + 4, "text-anchor": "end" },
                    Number(u.toPrecision(4)).toString()));
    v.paths.forEach((p, k) => {
      const c = COLOURS[k % COLOURS.length];
      svg.append(el("svg:polyline", { fill: "none", stroke: c, "stroke-width": 2,
        points: p.positions.map((u, r) => `${x(r)},${y(u)}`).join(" ") }));
      const t = p.targets.map((u, r) => (u === null ? null : `${x(r + 1)},${y(u)}`)).filter(Boolean);
      if (t.length) svg.append(el("svg:polyline", { fill: "none", stroke: c, "stroke-dasharray": "2 3",
        points: t.join(" ") }));
      svg.append(el("svg:text", { x: w + 4, y: 28 + 16 * k, fill: c }, p.label));
    });
    box.append(svg);
  }
}

// --- two rule bases compared ------------------------------------------------------------
async function loadCompare() {
  const data = await api("/api/files");
  for (const id of ["compare-a", "compare-b"]) {
    const s = $(id), keep = s.value;
    s.replaceChildren(...data.files.map((f) => el("option", { value: f.id, title: f.folder }, f.name)));
    if (data.files.some((f) => f.id === keep)) s.value = keep;
    else if (state.file && data.files.some((f) => f.id === state.file)) s.value = state.file;
  }
  drawCompare();
}

async function drawCompare() {
  let data;
  try { data = await api("/api/compare", { a: $("compare-a").value, b: $("compare-b").value }); }
  catch (e) { $("changes").replaceChildren(el("li", {}, e.message)); $("compare").replaceChildren(); return; }
  const made = (rb) => rb.made_by || "(no made_by note)";
  $("compare-made-by").textContent = `${data.a.name}: ${made(data.a)} | ${data.b.name}: ${made(data.b)}`;
  $("changes").replaceChildren(...(data.changes.length ? data.changes : ["no change"]).map(
    (c) => el("li", { "data-testid": "change" }, c)));
  const box = $("compare");
  box.replaceChildren();
  const after = Object.fromEntries(data.b.inputs.concat([data.b.output]).map((v) => [v.name, v]));
  for (const v of data.a.inputs.concat([data.a.output])) {
    const w2 = after[v.name];
    const shown = { ...v, lo: Math.min(v.lo, w2 ? w2.lo : v.lo), hi: Math.max(v.hi, w2 ? w2.hi : v.hi) };
    const w = 560, h = 140, pad = 26;
    const svg = el("svg:svg", { width: w, height: h, "data-testid": "compare-" + v.name });
    const [x, y] = axes(svg, shown, w, h, pad);
    svg.append(el("svg:text", { x: pad, y: 12 }, `${v.name}: dashed ${data.a.name}, solid ${data.b.name}`));
    const single = (t) => t.points[0] === t.points[2];  // a singleton: a stem
    const draw = (t, dashed, colour) => svg.append(el("svg:polyline", { fill: "none", stroke: colour,
      "stroke-width": 1.6, "stroke-dasharray": dashed ? "4 3" : "",
      points: (single(t) ? [[t.points[1], 0], [t.points[1], 1]] : outline(shown, t.points))
        .map(([q, m]) => `${x(q)},${y(m)}`).join(" ") }));
    v.terms.forEach((t, k) => draw(t, true, COLOURS[k % COLOURS.length]));
    if (w2) w2.terms.forEach((t, k) => {
      draw(t, false, COLOURS[k % COLOURS.length]);
      if (!single(t))  // singletons' names would overlap: the list of changes names them
        svg.append(el("svg:text", { x: x(t.points[1]), y: y(1) - 3, "text-anchor": "middle" }, t.name));
    });
    box.append(svg);
  }
}

// --- decision ---------------------------------------------------------------------------
// a decision to start from in each game, as its advice command's help shows one
const EXAMPLES = {
  cribbage: { hand: "5H 5S JD QC 4S 9C", crib: "mine" },
  backgammon: { position: "4HPwATDgc/ABMA", dice: "31" },
  hearts: { hand: "2H 3C 3S 4S 6C 7D 8H 9H TD JD QS KS", trick: "5S,AS", earlier: "2C,AC,5C,9C" },
  holdem: { hole: "AsKd", board: "", betting: "" },
};
let gameFields = {};

async function loadGames() {
  const s = $("decision-game");
  if (!s.options.length) {
    const data = await api("/api/games");
    s.replaceChildren(...data.games.map((g) => el("option", { value: g.name, "data-rulebase": g.rulebase }, g.name)));
    gameFields = Object.fromEntries(data.games.map((g) => [g.name, g.fields]));
    const mine = data.games.find((g) => state.rb && state.rb.name.startsWith(g.name));
    if (mine) s.value = mine.name;
    buildSpot();
  }
  drawDecision();
}

function buildSpot() {
  const game = $("decision-game").value;
  const given = EXAMPLES[game] || {};
  $("spot-fields").replaceChildren(...(gameFields[game] || []).map((f) => {
    const box = el("input", { id: `spot-${f.name}`, "data-testid": `spot-${f.name}`, title: f.help,
      placeholder: f.help, value: given[f.name] || "", size: f.name === "hand" ? 36 : 16 });
    box.onchange = () => { picked = null; drawDecision(); };
    const label = el("label", { class: "spot" }, `${f.name} `);
    label.append(box);
    return label;
  }));
}

let picked = null;  // the option whose explanation is shown (null: the choice's)

function decisionBody() {
  const body = { text: state.text, path: state.path, game: $("decision-game").value, pick: picked };
  if ($("decision-mode").value === "dealt") {
    return { ...body, seed: +$("decision-seed").value, index: +$("decision-index").value };
  }
  const spot = {};
  for (const f of gameFields[body.game] || []) spot[f.name] = $(`spot-${f.name}`).value;
  return { ...body, spot };
}

let deciding = 0;
async function drawDecision() {
  const seq = ++deciding;
  const dealt = $("decision-mode").value === "dealt";
  $("dealt-fields").hidden = !dealt;
  $("spot-fields").hidden = dealt;
  let data;
  try {
    data = await api("/api/decision", decisionBody());
  } catch (e) {
    if (seq !== deciding) return;
    $("situation").textContent = e.message;
    for (const id of ["advisor", "choice", "advice-note"]) $(id).textContent = "";
    for (const id of ["advice", "advice-head", "why"]) $(id).replaceChildren();
    $("why-title").textContent = "";
    return;
  }
  if (seq !== deciding) return;
  $("situation").textContent = data.situation.join("\n");
  $("advisor").textContent = data.advisor;
  $("choice").textContent = data.choice;
  $("advice-note").textContent = data.note;
  const head = el("tr");
  head.append(...data.columns.map((c) => el("th", {}, c)));
  $("advice-head").replaceChildren(head);
  $("advice").replaceChildren(...data.rows.map((r, i) => {
    const tr = el("tr", { "data-testid": "advice-row", style: i === 0 ? "font-weight:600" : "",
                          class: r[0] === data.pick ? "picked" : "", title: "click: the rules behind it" });
    tr.append(...r.map((c) => el("td", {}, c)));
    tr.onclick = () => { picked = r[0]; drawDecision(); };
    return tr;
  }));
  $("why-title").textContent = data.explanation ? `rules behind ${data.pick || data.choice}` +
    (data.pick && data.pick !== data.choice ? " (not the choice)" : ", the choice") +
    `: grade ${number(data.explanation.grade)}` : "";
  const why = data.explanation ? data.explanation.rules.filter((r) => r.strength > 0)
    .sort((a, b) => b.strength - a.strength) : [];
  $("why").replaceChildren(...why.map((r) => {
    const tr = el("tr", { "data-testid": "why-rule" });
    tr.append(el("td", { class: "num" }, r.strength.toFixed(3)), el("td", {}, r.text));
    return tr;
  }));
}

// --- views, save ------------------------------------------------------------------------
function drawViews() {
  const v = state.view;
  if (v === "rules") { buildInputs(); explain(); }
  if (v === "variables") drawVariables();
  if (v === "surface") { fillAxes(); drawSurface(); }
  if (v === "decision") loadGames().catch((e) => say(e.message, true));
}

function show(view) {
  state.view = view;
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("on", b.dataset.view === view);
  for (const d of document.querySelectorAll(".view")) d.classList.toggle("on", d.id === "view-" + view);
  if (view === "history") loadHistories().catch((e) => say(e.message, true));
  else if (state.rb) drawViews();
}

async function save() {
  await flush();
  try {
    const data = await api("/api/save", { id: state.file, text: state.text, stamp: state.stamp,
                                          opened: state.opened });
    state.stamp = data.stamp; state.dirty = false; state.opened = state.text;
    $("conflict").hidden = true;
    say("saved " + data.path.split("/").pop());
  } catch (e) {
    say(e.message, true);
    if (e.data && e.data.diff) showConflict(e.data.diff);
  }
}

function showConflict(diff) {  // what changed on disk since the file was opened
  $("conflict-title").textContent = `${state.path.split("/").pop()} changed on disk since ` +
    "you opened it; your text is not saved. What changed:";
  $("conflict-diff").replaceChildren(...diff.map((line) => el("div", {
    class: line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add"
      : line.startsWith("-") ? "del" : "" }, line)));
  $("conflict").hidden = false;
}

async function saveAs() {
  await flush();
  try {
    const data = await api("/api/save-as", { folder: +$("save-as-folder").value,
      name: $("save-as-name").value, text: state.text });
    state.dirty = false;
    await loadFiles(data.id);
    say("saved " + data.path);
  } catch (e) { say(e.message, true); }
}

async function newBase() {  // the server writes the template; it opens like any file
  try {
    const data = await api("/api/new", { folder: +$("save-as-folder").value,
      name: $("save-as-name").value });
    await loadFiles(data.id);
    say("created " + data.path);
  } catch (e) { say(e.message, true); }
}

$("editor").addEventListener("input", typed);
$("editor").addEventListener("scroll", scrolled);
for (const b of document.querySelectorAll(".tabs button")) b.onclick = () => show(b.dataset.view);
$("save").onclick = save;
$("save-as").onclick = saveAs;
$("new").onclick = newBase;
$("conflict-reload").onclick = () => { state.dirty = false; openFile(state.file); };
$("conflict-dismiss").onclick = () => { $("conflict").hidden = true; };
$("surface-x").onchange = $("surface-y").onchange = drawSurface;
$("history-db").onchange = drawHistory;
$("compare-a").onchange = $("compare-b").onchange = drawCompare;
$("decision-game").onchange = () => { picked = null; buildSpot(); drawDecision(); };
$("decision-mode").onchange = $("decision-seed").onchange = $("decision-index").onchange = () => {
  picked = null; drawDecision(); };
window.addEventListener("beforeunload", (ev) => { if (state.dirty) ev.preventDefault(); });
loadFiles(new URLSearchParams(location.search).get("open")).catch((e) => say(e.message, true));

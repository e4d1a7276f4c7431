"use strict";
// privamp's planning page: the inputs, the calls into privamp.wasm (package
// query, the same answers as the command line's --json) and their display.
// Numbers are printed by privampFormat, the command line's own rounding
// (ε up, noise up, optimistic estimates down).

const $ = (id) => document.getElementById(id);
window.privampErrors = [];
window.privampTimings = {};
// Go's standard error (a panic's message) reaches console.log: keep it, so
// that a failure can be shown and the test can report it.
window.privampLog = [];
{
  const consoleLog = console.log;
  console.log = (...a) => { privampLog.push(a.join(" ")); consoleLog(...a); };
}
window.addEventListener("error", (e) => privampErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => privampErrors.push(String(e.reason)));

// ---- the engine on the main thread (fast answers) ----

let engineReady;
const engine = new Promise((resolve) => { engineReady = resolve; });
window.privampReady = () => engineReady();

async function loadEngine() {
  const t0 = performance.now();
  const go = new Go();
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch("privamp.wasm"), go.importObject)).instance;
  } catch (e) {
    const buf = await (await fetch("privamp.wasm")).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst);
  await engine;
  privampTimings.load = performance.now() - t0;
}

// call answers one query on the main thread: {result} or {error}.
function call(method, request) {
  return JSON.parse(privamp(method, JSON.stringify(request)));
}

// numbers reads typed text as the command line reads its flags.
function numbers(command, texts) {
  return JSON.parse(privampNumbers(command, JSON.stringify(texts)));
}

function fmt(kind, x) {
  if (x === null || x === undefined) return kind === "loss" ? "no finite guarantee" : "—";
  return privampFormat(kind, x);
}

// ---- long computations in a Web Worker, with progress and cancel ----

class Long {
  constructor(name) { this.name = name; this.seq = 0; this.start(); }
  start() {
    this.w = new Worker("worker.js");
    this.w.onmessage = (e) => this.message(e.data);
    this.w.onerror = (e) => { privampErrors.push(this.name + " worker: " + e.message); };
  }
  // run posts the calls; onEach(index, total, answer) sees each answer as it
  // comes; the promise resolves when all are done, rejects on cancel.
  run(calls, onEach) {
    this.cancel();
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.job = {id, onEach, resolve, reject, outs: []};
      this.w.postMessage({id, calls});
    });
  }
  message(m) {
    if (m.log !== undefined) { privampErrors.push(this.name + " worker: " + m.log); return; }
    const j = this.job;
    if (!j || m.id !== j.id) return;
    if (m.done) { this.job = null; j.resolve(j.outs); return; }
    const ans = JSON.parse(m.out);
    j.outs.push(ans);
    if (j.onEach) j.onEach(m.index, m.total, ans, m.ms);
  }
  cancel() {
    if (!this.job) return false;
    const j = this.job;
    this.job = null;
    this.w.terminate();
    this.start();
    j.reject(new Error("cancelled"));
    return true;
  }
}

// ---- shared display helpers ----

function rows(table, list) {
  table.replaceChildren();
  for (const [label, value, unit, source, key] of list) {
    const tr = table.insertRow();
    tr.insertCell().textContent = label;
    const v = tr.insertCell();
    v.className = "v";
    v.textContent = value;
    if (key) v.dataset.key = key;
    const u = tr.insertCell(); u.className = "u"; u.textContent = unit || "";
    const s = tr.insertCell(); s.className = "s"; s.textContent = source || "";
  }
}

function notes(div, sources, assumptions, extra) {
  div.replaceChildren();
  const add = (title, items) => {
    if (!items || items.length === 0) return;
    const h = document.createElement("p"); h.textContent = title; div.appendChild(h);
    const ul = document.createElement("ul");
    for (const s of items) { const li = document.createElement("li"); li.textContent = s; ul.appendChild(li); }
    div.appendChild(ul);
  };
  add("Sources:", sources.filter(Boolean));
  add("Assumptions:", assumptions);
  add("Notes:", extra);
}

// fieldError shows msg next to the input (or under the form when none).
function clearErrors(form) {
  for (const e of form.querySelectorAll(".err")) e.textContent = "";
  for (const e of form.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
}
function fieldError(form, inputId, msg, fallback) {
  const box = inputId && $(inputId + "-err");
  if (box) {
    box.textContent = msg;
    $(inputId)?.setAttribute("aria-invalid", "true");
  } else {
    $(fallback).textContent = msg;
  }
}

function shellWord(s) { return /^[A-Za-z0-9_.,:=+\-\/]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }

function commandLine(cmd, flags) {
  return ["privamp", cmd, ...flags.flatMap(([f, v]) => v === true ? ["--" + f] : ["--" + f, shellWord(String(v))])].join(" ");
}

// clearAnswer empties the answer shown for earlier inputs, so that no
// number stays on the page beside inputs it does not answer.
function clearAnswer(...ids) {
  for (const id of ids) {
    const e = $(id);
    if (e.tagName === "A") e.hidden = true; else e.replaceChildren();
  }
}

function setState(section, state) {
  section.dataset.state = state;
  section.dataset.seq = String(Number(section.dataset.seq || 0) + 1);
}

// ---- DP-SGD ----

// The DP-SGD inputs: element id, flag of privamp dpsgd, key of the query.
const DPSGD = [
  ["n", "n", "n"], ["batch", "batch", "batch"], ["epochs", "epochs", "epochs"],
  ["rate", "sampling-rate", "sampling_rate"], ["steps", "steps", "steps"],
  ["noise", "noise", "noise"], ["target", "target-epsilon", "target_epsilon"], ["delta", "delta", "delta"],
];
const DPSGD_URL = {n: "n", batch: "batch", epochs: "epochs", rate: "rate", "sampling-rate": "rate", q: "rate", steps: "steps",
  noise: "noise", z: "noise", target: "target", "target-epsilon": "target", epsilon: "target", delta: "delta",
  sampling: "sampling", neighbours: "neighbours", mode: "mode"};

// dpsgdFlags is the flags the form gives, in the command line's order, as
// typed: the rate replaces n and batch, steps replace epochs, the target
// replaces the noise.
function dpsgdFlags() {
  const calibrate = $("mode").value === "calibrate";
  const rate = $("rate").value.trim() !== "", steps = $("steps").value.trim() !== "";
  const skip = new Set([rate ? "n" : "rate", rate ? "batch" : "", steps ? "epochs" : "steps", calibrate ? "noise" : "target"]);
  const out = [];
  for (const [id, flag] of DPSGD) {
    if (skip.has(id)) continue;
    out.push([id, flag, $(id).value.trim()]);
  }
  return out;
}

let dpsgdTimer = 0;

// dpsgdClear removes the answer and the chart of earlier inputs.
function dpsgdClear() {
  sweep.runner?.cancel();
  calib.runner?.cancel();
  clearAnswer("dpsgd-rows", "dpsgd-notes", "epochs-plot", "epochs-cmd", "epochs-status");
  $("epochs-progress").value = 0;
}
const sweep = {runner: null};

// dpsgdEnable greys out the inputs the others replace (at once, so that a
// person can type into the one just enabled).
function dpsgdEnable() {
  const calibrate = $("mode").value === "calibrate";
  $("n").disabled = $("batch").disabled = $("rate").value.trim() !== "";
  $("epochs").disabled = $("steps").value.trim() !== "";
  $("noise").disabled = calibrate;
  $("target").disabled = !calibrate;
}

// dpsgdChanged answers 120 ms after the last keystroke, a calibration (a
// search over many accountings) 400 ms after it.
function dpsgdChanged() {
  dpsgdEnable();
  clearTimeout(dpsgdTimer);
  dpsgdTimer = setTimeout(dpsgdCompute, $("mode").value === "calibrate" ? 400 : 120);
}

function dpsgdCompute() {
  const form = $("dpsgd-form"), sec = $("dpsgd");
  clearErrors(form);
  dpsgdEnable();
  const flags = dpsgdFlags();
  const texts = {};
  for (const [, flag, text] of flags) texts[flag] = text;
  const cmdFlags = flags.map(([, f, t]) => [f, t]);
  for (const id of ["sampling", "neighbours"]) {
    if ($(id).value !== $(id).options[0].value) cmdFlags.push([id, $(id).value]);
  }
  const cmd = commandLine("dpsgd", cmdFlags);
  $("dpsgd-cmd").textContent = cmd;
  sec.dataset.cmd = cmd;
  updateURL();
  const parsed = numbers("dpsgd", texts);
  if (parsed.error) {
    fieldError(form, flags.find(([, f]) => f === parsed.error.flag)?.[0], parsed.error.message, "dpsgd-err");
    dpsgdClear();
    setState(sec, "error");
    return;
  }
  const req = {neighbours: $("neighbours").value, sampling: $("sampling").value};
  for (const [id, flag] of flags) req[DPSGD.find(d => d[0] === id)[2]] = parsed.values[flag];
  const t0 = performance.now();
  if (req.target_epsilon === undefined) {
    calib.runner?.cancel();
    const ans = call("dpsgd", req);
    privampTimings.dpsgd = performance.now() - t0;
    dpsgdAnswer(ans, req);
    return;
  }
  // A calibration (a search over many accountings) runs in a worker, so the
  // page stays responsive; new input cancels it.
  if (!calib.runner) calib.runner = new Long("calibrate");
  sweep.runner?.cancel();
  setState(sec, "running");
  $("dpsgd-rows").replaceChildren();
  $("epochs-status").textContent = "calibrating in a worker…";
  calib.runner.run([{method: "dpsgd", request: req}]).then(([ans]) => {
    privampTimings.calibrate = performance.now() - t0;
    $("epochs-status").textContent = "";
    dpsgdAnswer(ans, req);
  }, () => {});
}

const calib = {runner: null};

// dpsgdAnswer shows a dpsgd answer (or its refusal) for the request req.
function dpsgdAnswer(ans, req) {
  const form = $("dpsgd-form"), sec = $("dpsgd");
  if (ans.error) {
    const e = ans.error;
    const id = DPSGD.find(d => d[1] === e.flag)?.[0];
    fieldError(form, id, e.message, "dpsgd-err");
    dpsgdClear();
    setState(sec, "error");
    return;
  }
  const r = ans.result;
  const list = [];
  if (r.n) list.push(["n (examples)", fmt("int", r.n), "", "input"]);
  list.push(["q = batch/n", fmt("num", r.sampling_rate), "sampling rate", "input"]);
  list.push(["T (steps)", fmt("int", r.steps), "", "⌈epochs·n/batch⌉ or --steps"]);
  list.push(["z (noise multiplier)", fmt("noise", r.noise_multiplier), "σ/C", r.calibrated ? "calibrated: smallest z with ε ≤ target (bisection, verified)" : "input", "noise"]);
  list.push(["ε", fmt("loss", r.epsilon), "at δ = " + fmt("loss", r.delta), r.source, "epsilon"]);
  if (r.rdp_epsilon) list.push(["ε by RDP (beside)", fmt("loss", r.rdp_epsilon), "at δ = " + fmt("loss", r.delta), "RDP accountant", "rdp"]);
  if (r.pld_epsilon && r.epsilon_optimistic !== undefined && r.epsilon_optimistic !== null) {
    list.push(["ε by PLD / optimistic estimate", fmt("loss", r.pld_epsilon) + " / " + fmt("max", r.epsilon_optimistic), "the truth lies above the estimate", r.pld_source, "pld"]);
  } else if (r.pld_epsilon) {
    list.push(["ε by PLD", fmt("loss", r.pld_epsilon), "no optimistic estimate (see the notes)", r.pld_source, "pld"]);
  }
  if (r.order) list.push(["optimal order α", fmt("num", r.order), "", "minimised over real α > 1"]);
  rows($("dpsgd-rows"), list);
  notes($("dpsgd-notes"), [r.source, r.pld_source !== r.source ? r.pld_source : ""], r.assumptions, r.notes);
  setState(sec, "done");
  epochsSweep(req, r);
}

// epochsSweep draws ε against the number of epochs (or steps) of the same
// run at the answer's noise multiplier, point by point, in a worker.
function epochsSweep(req, r) {
  if (!sweep.runner) sweep.runner = new Long("epochs");
  const byEpochs = req.epochs !== undefined;
  const base = byEpochs ? req.epochs : req.steps;
  const fr = [0.25, 0.5, 0.75, 1, 1.5, 2];
  const xs = [...new Set(fr.map(f => byEpochs ? base * f : Math.max(1, Math.round(base * f))))];
  const calls = xs.map(x => {
    const q = Object.assign({}, req, byEpochs ? {epochs: x} : {steps: x});
    delete q.target_epsilon;
    q.noise = r.noise_multiplier;
    return {method: "dpsgd", request: q};
  });
  const pts = [], sec = $("dpsgd"), label = byEpochs ? "epochs" : "steps T";
  // Each point is privamp dpsgd with that number of epochs (steps) at the
  // answer's noise multiplier, every digit of it.
  const flags = [];
  for (const [id, flag, key] of DPSGD) if (req[key] !== undefined && id !== "target") flags.push([flag, id === (byEpochs ? "epochs" : "steps") ? "X" : (id === "noise" ? String(r.noise_multiplier) : $(id).value.trim())]);
  if (!flags.some(([f]) => f === "noise")) flags.splice(flags.length - 1, 0, ["noise", String(r.noise_multiplier)]);
  for (const id of ["sampling", "neighbours"]) if ($(id).value !== $(id).options[0].value) flags.push([id, $(id).value]);
  $("epochs-cmd").textContent = commandLine("dpsgd", flags) + "    # X = " + xs.map(x => String(x)).join(", ");
  const draw = () => lineChart($("epochs-plot"), {
    title: "ε against " + label, width: 720, height: 300, x: {label, min: 0}, y: {label: "ε at δ = " + fmt("loss", r.delta), min: 0},
    series: [{name: "ε (" + r.accountant + ", z = " + fmt("noise", r.noise_multiplier) + ")", color: "#0b57d0", marker: true, points: pts.slice().sort((a, b) => a[0] - b[0])},
      {name: "this run", color: "#d93025", marker: true, points: [[base, r.epsilon]]}],
  });
  $("epochs-progress").value = 0;
  $("epochs-status").textContent = "computing…";
  sec.dataset.sweep = "running";
  const t0 = performance.now();
  sweep.runner.run(calls, (i, total, ans) => {
    $("epochs-progress").value = (i + 1) / total;
    if (ans.result) pts.push([xs[i], ans.result.epsilon]);
    draw();
  }).then(() => {
    privampTimings.sweep = performance.now() - t0;
    $("epochs-status").textContent = `${pts.length} runs accounted in ${(privampTimings.sweep / 1000).toFixed(1)} s`;
    sec.dataset.sweep = "done";
  }, () => {
    $("epochs-status").textContent = "cancelled";
    sec.dataset.sweep = "cancelled";
  });
}

function updateURL() {
  const p = new URLSearchParams();
  for (const [id] of dpsgdFlags()) p.set(id, $(id).value.trim());
  for (const id of ["sampling", "neighbours", "mode"]) if ($(id).value !== $(id).options[0].value) p.set(id, $(id).value);
  history.replaceState(null, "", "?" + p.toString().replace(/%2C/g, ","));
}

function readURL() {
  const p = new URLSearchParams(location.search);
  for (const [k, v] of p) {
    const id = DPSGD_URL[k];
    if (!id) continue;
    $(id).value = v;
    if (id === "target" && !p.has("mode")) $("mode").value = "calibrate";
  }
}

// ---- per-person curve ----

const CURVE = [["c-n", "n"], ["c-sigma", "sigma"], ["c-batch", "batch"], ["c-epochs", "epochs"], ["c-delta", "delta"],
  ["c-radius", "radius"], ["c-eta", "eta"], ["c-points", "points"]];
const curveRunner = {r: null};

function curveCompute() {
  const form = $("curve-form"), sec = $("curve");
  clearErrors(form);
  const texts = {}, flags = [];
  for (const [id, flag] of CURVE) {
    const t = $(id).value.trim();
    if (t === "") continue;
    texts[flag] = t;
    flags.push([flag, t]);
  }
  const bounded = texts.radius !== undefined;
  const cmds = [commandLine("curve", flags)];
  if (bounded) cmds.push(commandLine("curve", flags.filter(([f]) => f !== "radius")));
  $("curve-cmd").textContent = cmds.join("\n");
  clearAnswer("curve-plot", "curve-rows", "curve-notes");
  const parsed = numbers("curve", texts);
  if (parsed.error) {
    fieldError(form, CURVE.find(([, f]) => f === parsed.error.flag)?.[0], parsed.error.message, "curve-err");
    setState(sec, "error");
    return;
  }
  const v = parsed.values, req = {};
  for (const [k, x] of Object.entries(v)) req[k] = x;
  const calls = [{method: "curve", request: req}];
  if (bounded) {
    const q = Object.assign({}, req);
    delete q.radius;
    calls.push({method: "curve", request: q});
  }
  if (!curveRunner.r) curveRunner.r = new Long("curve");
  $("curve-progress").removeAttribute("value"); // indeterminate while the call runs
  $("curve-status").textContent = "computing in a worker…";
  setState(sec, "running");
  const t0 = performance.now();
  curveRunner.r.run(calls, (i, total) => { $("curve-progress").value = (i + 1) / total; }).then((outs) => {
    privampTimings.curve = performance.now() - t0;
    const bad = outs.find(a => a.error);
    if (bad) {
      fieldError(form, CURVE.find(([, f]) => f === bad.error.flag)?.[0], bad.error.message, "curve-err");
      $("curve-status").textContent = "";
      setState(sec, "error");
      return;
    }
    curveRender(outs.map(a => a.result), bounded);
    $("curve-status").textContent = `done in ${(privampTimings.curve / 1000).toFixed(2)} s`;
    sec.dataset.cmd = cmds[0];
    setState(sec, "done");
  }, () => {
    $("curve-status").textContent = "cancelled";
    $("curve-progress").value = 0;
    setState(sec, "cancelled");
  });
}

function curveRender(res, bounded) {
  const main = res[0], free = bounded ? res[1] : null, n = main.n;
  const series = [], list = [];
  const colour = ["#0b57d0", "#188038", "#9334e6"];
  const addCols = (c, what, dash, shift) => c.columns.forEach((col, k) => {
    series.push({name: col.name + what, color: colour[(k + shift) % 3], dash, points: c.index.map((t, i) => [n - t + 1, col.epsilon[i]])});
  });
  if (free) addCols(free, " (unbounded domain)", "6 4", 1);
  addCols(main, bounded ? " (bounded domain, R = " + fmt("num", Number($("c-radius").value)) + ")" : "", "", 0);
  const samp = main.sampling;
  if (samp) series.push({name: "Poisson sampling, replace-one (every iterate released)", color: "#d93025", dash: "2 3",
    points: [[1, samp.epsilon], [n, samp.epsilon]]});
  lineChart($("curve-plot"), {title: "per-person ε", width: 760, height: 380, legend: "bottom",
    x: {label: "steps from the person's record to the end, n − t + 1", log: true},
    y: {label: "ε at δ = " + fmt("loss", main.delta), log: true}, series});
  const last = main.index.length - 1;
  for (const col of main.columns) {
    list.push([`ε of the last record (t = ${fmt("int", main.index[last])}), ` + col.name, fmt("loss", col.epsilon[last]), bounded ? "bounded domain" : "", col.source, "last-" + col.variant]);
    list.push([`ε of the first record (t = ${fmt("int", main.index[0])}), ` + col.name, fmt("loss", col.epsilon[0]), bounded ? "bounded domain" : "", col.source, "first-" + col.variant]);
  }
  if (free) for (const col of free.columns) {
    list.push([`ε of the last record, unbounded domain, ` + col.name, fmt("loss", col.epsilon[free.index.length - 1]), "", col.source, "free-last-" + col.variant]);
    list.push([`ε of the first record, unbounded domain, ` + col.name, fmt("loss", col.epsilon[0]), "", col.source, "free-first-" + col.variant]);
  }
  if (samp) list.push(["ε by Poisson sampling (replace-one)", fmt("loss", samp.epsilon), "every iterate released", samp.source, "sampling"]);
  rows($("curve-rows"), list);
  notes($("curve-notes"), [...main.columns.map(c => c.source), main.conversion_source, samp?.source],
    main.columns[0]?.assumptions, [...main.columns.flatMap(c => c.notes || []), ...(samp?.notes || [])]);
}

// ---- planning ----

const PLAN = [["p-n", "n"], ["p-radius", "radius"], ["p-dimension", "dimension"], ["p-delta", "delta"], ["p-smoothness", "smoothness"]];
const planRunner = {r: null};

function tierSpecs() {
  const out = [];
  for (const tr of $("tiers").tBodies[0].rows) {
    const name = tr.querySelector(".t-name").value.trim(), share = tr.querySelector(".t-share").value.trim(), eps = tr.querySelector(".t-eps").value.trim();
    out.push((name ? name + "=" : "") + share + ":" + eps);
  }
  return out;
}

function planCompute() {
  const form = $("plan-form"), sec = $("plan");
  clearErrors(form);
  clearAnswer("plan-rows", "plan-groups", "plan-notes", "plan-download");
  window.privampPlanFile = undefined;
  const texts = {}, flags = [];
  const tiers = tierSpecs();
  for (const t of tiers) flags.push(["tier", t]);
  for (const [id, flag] of PLAN) {
    const t = $(id).value.trim();
    if (t === "") continue;
    texts[flag] = t;
    flags.push([flag, t]);
  }
  const cmd = commandLine("plan", flags);
  $("plan-cmd").textContent = cmd + " --out plan.json";
  const parsed = numbers("plan", texts);
  if (parsed.error) {
    fieldError(form, PLAN.find(([, f]) => f === parsed.error.flag)?.[0], parsed.error.message, "plan-err");
    setState(sec, "error");
    return;
  }
  const req = Object.assign({tiers}, parsed.values);
  if (!planRunner.r) planRunner.r = new Long("plan");
  $("plan-progress").removeAttribute("value");
  $("plan-status").textContent = "computing in a worker…";
  setState(sec, "running");
  const t0 = performance.now();
  planRunner.r.run([{method: "plan", request: req}]).then(([ans]) => {
    privampTimings.plan = performance.now() - t0;
    $("plan-progress").value = 1;
    if (ans.error) {
      const id = ans.error.flag === "tiers" || ans.error.flag === "tier" ? "p-tier" : PLAN.find(([, f]) => f === ans.error.flag)?.[0];
      fieldError(form, id, ans.error.message, "plan-err");
      $("plan-status").textContent = "";
      setState(sec, "error");
      return;
    }
    planRender(ans.result);
    $("plan-status").textContent = `done in ${(privampTimings.plan / 1000).toFixed(2)} s`;
    sec.dataset.cmd = cmd;
    setState(sec, "done");
  }, () => {
    $("plan-status").textContent = "cancelled";
    $("plan-progress").value = 0;
    setState(sec, "cancelled");
  });
}

function planRender(r) {
  const list = [
    ["people (positions 1..n)", fmt("int", r.n), "", ""],
    ["noise σ", fmt("noise", r.sigma), "", r.sigma_source, "sigma"],
    ["step size η", fmt("num", r.eta), "", r.eta_source, "eta"],
  ];
  // The utility bound is a dp.Loss (null: none), η a dp.Num, σ a dp.Noise,
  // as the command line prints them.
  if (r.utility) list.push(["utility bound E[F(W)] − F*", r.utility.bound === null ? "none" : fmt("loss", r.utility.bound), "", r.utility.source, "utility"]);
  list.push(["every target met", r.feasible ? "yes: largest achieved/target = " + Number(r.max_achieved_ratio).toFixed(10) : "no", "", "every person's ε recomputed with package shifted", "met"]);
  if (r.uniform) list.push([`uniform plan σ (everyone ε = ${fmt("num", r.uniform.epsilon)}, δ = ${fmt("num", r.uniform.delta)})`, fmt("noise", r.uniform.sigma), "", "the same computation with every budget set to the strictest", "uniform"]);
  rows($("plan-rows"), list);
  const g = $("plan-groups");
  g.replaceChildren();
  const head = g.createTHead().insertRow();
  for (const h of ["positions", "count", "who", "target ε", "δ", "achieved ε (min – max)", "min slack"]) {
    const th = document.createElement("th"); th.textContent = h; head.appendChild(th);
  }
  const body = g.createTBody();
  for (const x of r.groups || []) {
    const tr = body.insertRow();
    tr.dataset.tier = x.tier;
    for (const [k, s] of [["positions", fmt("int", x.first) + "–" + fmt("int", x.last)], ["count", fmt("int", x.last - x.first + 1)], ["who", x.tier],
      ["target", fmt("loss", x.epsilon)], ["delta", fmt("loss", x.delta)], ["achieved", fmt("loss", x.achieved_min) + " – " + fmt("loss", x.achieved_max)], ["slack", fmt("max", x.slack_min)]]) {
      const td = tr.insertCell(); td.textContent = s; td.dataset.key = k;
    }
  }
  notes($("plan-notes"), [r.source, r.sigma_source, r.eta_source], r.assumptions, r.notes);
  if (r.plan) {
    const text = JSON.stringify(r.plan, null, 2) + "\n";
    window.privampPlanFile = text;
    const a = $("plan-download");
    if (a.href) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
    a.hidden = false;
  }
}

// ---- wiring ----

async function init() {
  readURL();
  for (const el of $("dpsgd-form").querySelectorAll("input, select")) el.addEventListener("input", dpsgdChanged);
  $("epochs-cancel").addEventListener("click", () => sweep.runner?.cancel());
  $("curve-go").addEventListener("click", curveCompute);
  $("curve-cancel").addEventListener("click", () => curveRunner.r?.cancel());
  $("plan-go").addEventListener("click", planCompute);
  $("plan-cancel").addEventListener("click", () => planRunner.r?.cancel());
  $("tier-add").addEventListener("click", () => {
    const body = $("tiers").tBodies[0], tr = body.rows[body.rows.length - 1].cloneNode(true);
    for (const i of tr.querySelectorAll("input")) i.value = "";
    body.appendChild(tr);
  });
  $("tiers").addEventListener("click", (e) => {
    if (e.target.classList.contains("t-del") && $("tiers").tBodies[0].rows.length > 1) e.target.closest("tr").remove();
  });
  try {
    await loadEngine();
  } catch (e) {
    $("status").textContent = "privamp.wasm did not load: " + e + (location.protocol === "file:" ?
      " — a page opened as a file cannot load it: serve the folder (python3 -m http.server -d web/dist 8000) and open http://localhost:8000/" : "");
    privampErrors.push(String(e));
    return;
  }
  $("status").textContent = `privamp.wasm loaded in ${(privampTimings.load / 1000).toFixed(2)} s`;
  const t0 = performance.now();
  dpsgdCompute();
  privampTimings.first = performance.now() - t0;
  document.body.dataset.ready = "true";
}

init();

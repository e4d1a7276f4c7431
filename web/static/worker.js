"use strict";
// The page's Web Worker: a second copy of privamp.wasm for the long
// computations (ε against epochs, per-person curves, plans), so that the
// page stays responsive. A message {id, calls: [{method, request}, …]} is
// answered by one message {id, index, total, out} per call as it finishes
// (progress) and {id, done: true} at the end. Cancelling is terminating
// this worker: the page starts a new one.
importScripts("wasm_exec.js");

// Go's standard error (a panic's message) reaches console.log: pass it to
// the page too, where it is shown rather than lost in a worker's console.
const consoleLog = console.log;
console.log = (...a) => { postMessage({log: a.join(" ")}); consoleLog(...a); };

const ready = (async () => {
  const go = new Go();
  const url = "privamp.wasm";
  let inst;
  try {
    inst = (await WebAssembly.instantiateStreaming(fetch(url), go.importObject)).instance;
  } catch (e) { // a server that does not send application/wasm
    const buf = await (await fetch(url)).arrayBuffer();
    inst = (await WebAssembly.instantiate(buf, go.importObject)).instance;
  }
  go.run(inst); // Go's main sets the functions, then waits
})();

onmessage = async (e) => {
  const {id, calls} = e.data;
  try {
    await ready;
  } catch (err) {
    postMessage({id, index: 0, total: calls.length, out: JSON.stringify({error: {kind: "failure", message: "privamp.wasm did not load: " + err}})});
    postMessage({id, done: true});
    return;
  }
  for (let i = 0; i < calls.length; i++) {
    const t0 = performance.now();
    const out = self.privamp(calls[i].method, JSON.stringify(calls[i].request));
    postMessage({id, index: i, total: calls.length, out, ms: performance.now() - t0});
  }
  postMessage({id, done: true});
};

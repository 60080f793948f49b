"use strict";
// The board in the browser. The capability is the URL's fragment: never sent
// to the server in a URL, only in a header of each API request.
(function () {
  var token = location.hash.slice(1);
  var RANKS = ["", "Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain", "Major", "Colonel", "General", "Marshal", "Infiltrator", "Bomb", "Flag"];
  var SHORT = ["", "S", "2", "3", "4", "5", "6", "7", "8", "9", "10", "I", "B", "F"];
  var TRAY_ORDER = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12, 13];
  var LAKES = [42, 43, 46, 47, 52, 53, 56, 57];
  var st = null, sel = -1, trayRank = 0, draft = null, step = -1, clockBase = 0;
  var $ = function (id) { return document.getElementById(id); };

  function api(method, path, body) {
    var init = { method: method, headers: { "X-Strategobot-Capability": token } };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) { throw new Error(j.error || r.statusText); } return j; });
    });
  }
  function refuse(e) { $("refusal").textContent = e.message; }
  function sqName(i) { return String.fromCharCode(65 + i % 10) + (Math.floor(i / 10) + 1); }
  function mySide() { return st && st.viewer !== "public" ? st.viewer : ""; }
  // Display order: the viewer's own side at the bottom.
  function order() {
    var out = [], r, c;
    for (r = 0; r < 10; r++) { for (c = 0; c < 10; c++) {
      out.push(mySide() === "blue" ? r * 10 + (9 - c) : (9 - r) * 10 + c);
    } }
    return out;
  }
  function setupSquare(side, row, col) { return side === "red" ? (3 - row) * 10 + col : (6 + row) * 10 + (9 - col); }
  function setupCell(side, sq) {
    var row = Math.floor(sq / 10), col = sq % 10;
    if (side === "red") { return row <= 3 ? [3 - row, col] : null; }
    return row >= 6 ? [row - 6, 9 - col] : null;
  }
  function cellAt(sq) {
    if (st.phase === "setup") {
      var rc = setupCell(mySide(), sq);
      if (rc && draft && draft[rc[0]][rc[1]]) { return { s: mySide(), r: draft[rc[0]][rc[1]] }; }
      return {};
    }
    return boardAt()[sq] || {};
  }
  // boardAt returns the board shown: now, a replayed ply (as the viewer knew
  // it then, from the server), or the final reveal.
  var past = null, revealed = null;
  function boardAt() {
    if (step >= 0 && past) { return past.board || []; }
    if (revealed) { return revealed; }
    return st.board || [];
  }
  function goto(n) {
    var total = (st.history || []).length;
    if (n < 0 || n >= total) { step = -1; past = null; draw(); return; }
    api("GET", "/api/replay?ply=" + n).then(function (j) { step = n; past = j; draw(); }).catch(refuse);
  }
  function targets() {
    var t = {};
    if (st.phase !== "playing" || sel < 0 || step >= 0) { return t; }
    (st.legal || []).concat(st.infiltrate || []).forEach(function (m) { if (m[0] === sel) { t[m[1]] = true; } });
    return t;
  }
  function label(sq, c) {
    var who = c.s ? (c.s === mySide() ? "your " : c.s + " ") : "";
    var what = c.s ? (c.r ? RANKS[c.r] : "unknown piece" + (c.k ? " (Scout)" : c.m ? " (moved)" : "")) : (LAKES.indexOf(sq) >= 0 ? "lake" : "empty");
    return sqName(sq) + ": " + who + what;
  }
  function draw() {
    var board = $("board"), t = targets(), ord = order(), last = st.history && st.history.length ? st.history[st.history.length - 1] : null;
    board.textContent = "";
    ord.forEach(function (sq, i) {
      if (i % 10 === 0) { var row = document.createElement("div"); row.setAttribute("role", "row"); row.style.display = "contents"; board.appendChild(row); }
      var c = cellAt(sq), b = document.createElement("button");
      b.type = "button"; b.className = "sq" + (LAKES.indexOf(sq) >= 0 ? " lake" : "") + (c.s ? " " + c.s : "") + (sq === sel ? " sel" : "") + (t[sq] ? " target" : "") + (last && step < 0 && !revealed && (sq === last.f || sq === last.t) ? " last" : "");
      b.setAttribute("role", "gridcell");
      b.draggable = !!c.s && c.s === mySide();
      b.dataset.sq = sq;
      b.textContent = c.s ? (c.r ? SHORT[c.r] : "?") : "";
      b.setAttribute("aria-label", label(sq, c) + (t[sq] ? ", target" : ""));
      b.tabIndex = sq === (sel >= 0 ? sel : ord[0]) ? 0 : -1;
      board.lastChild.appendChild(b);
    });
    var setup = st.phase === "setup" && mySide() && !st.ready[mySide() === "red" ? 0 : 1];
    $("tray").hidden = !setup; ["random", "save", "confirm"].forEach(function (id) { $(id).hidden = !setup; });
    var playing = st.phase === "playing" && mySide();
    $("draw").hidden = $("resign").hidden = !playing;
    $("draw").textContent = st.drawOfferBy && st.drawOfferBy !== mySide() ? "Accept draw" : "Offer draw";
    if (setup) { drawTray(); }
    $("title").textContent = st.players[0] + " (red) vs " + st.players[1] + " (blue) — " + st.variant;
    var s = st.phase === "setup" ? "Set-up" : st.result ? st.result : st.toMove + " to move" + (st.toMove === mySide() ? " — your move" : "");
    if (st.drawOfferBy) { s += " — " + st.drawOfferBy + " offers a draw"; }
    $("status").textContent = s;
    $("replay").hidden = !(st.history && st.history.length);
    $("ply").textContent = (step < 0 ? (st.history || []).length : step) + "/" + (st.history || []).length;
    var hist = $("history"); hist.textContent = "";
    (st.history || []).forEach(function (m) { var li = document.createElement("li"); li.textContent = m.n; hist.appendChild(li); });
    tick();
  }
  function remaining() {
    var left = st.army.slice(), r, c;
    for (r = 0; r < draft.length; r++) { for (c = 0; c < 10; c++) { if (draft[r][c]) { left[draft[r][c]]--; } } }
    return left;
  }
  function drawTray() {
    var tray = $("tray"), left = remaining();
    tray.textContent = "";
    TRAY_ORDER.forEach(function (rank) {
      if (!st.army[rank]) { return; }
      var b = document.createElement("button");
      b.type = "button"; b.draggable = true; b.dataset.rank = rank;
      b.textContent = SHORT[rank] + " ×" + left[rank];
      b.setAttribute("role", "option"); b.setAttribute("aria-label", RANKS[rank] + ", " + left[rank] + " left");
      b.setAttribute("aria-selected", rank === trayRank ? "true" : "false");
      b.disabled = left[rank] <= 0;
      tray.appendChild(b);
    });
  }
  function place(sq, rank) {
    var rc = setupCell(mySide(), sq);
    if (!rc) { return; }
    if (rank && remaining()[rank] <= 0) { return; }
    draft[rc[0]][rc[1]] = rank; saveLocal(); draw(); check();
  }
  function swap(a, b) {
    var ra = setupCell(mySide(), a), rb = setupCell(mySide(), b);
    if (!ra || !rb) { return; }
    var x = draft[ra[0]][ra[1]]; draft[ra[0]][ra[1]] = draft[rb[0]][rb[1]]; draft[rb[0]][rb[1]] = x;
    saveLocal(); draw(); check();
  }
  function saveLocal() { try { localStorage.setItem("strategobot-setup-" + st.variant, JSON.stringify(draft)); } catch (e) { /* private mode */ } }
  // check asks the server (the rules engine) for its refusal of the draft, if any.
  function check() {
    api("POST", "/api/check", { version: st.version, setup: draft, confirm: false }).then(function (j) { $("refusal").textContent = j.refusal; }).catch(refuse);
  }
  function click(sq) {
    $("refusal").textContent = "";
    if (st.phase === "setup" && mySide()) {
      if (trayRank) { place(sq, trayRank); return; }
      if (sel >= 0 && sel !== sq) { swap(sel, sq); sel = -1; draw(); return; }
      sel = sel === sq ? -1 : sq; draw(); return;
    }
    if (st.phase !== "playing" || st.toMove !== mySide() || step >= 0) { return; }
    var t = targets();
    if (sel >= 0 && t[sq]) { move(sel, sq); return; }
    var c = cellAt(sq);
    sel = c.s === mySide() && sel !== sq ? sq : -1; draw();
  }
  function move(from, to) {
    var guess = 0;
    var inf = (st.infiltrate || []).some(function (m) { return m[0] === from && m[1] === to; });
    var plain = (st.legal || []).some(function (m) { return m[0] === from && m[1] === to; });
    if (inf && !plain) {
      var g = prompt("Guess the rank (S, 2–10, B, F):");
      if (!g) { return; }
      guess = SHORT.indexOf(g.trim().toUpperCase());
      if (guess <= 0) { return; }
    }
    sel = -1;
    api("POST", "/api/move", { version: st.version, from: from, to: to, guess: guess }).catch(refuse);
  }
  function tick() {
    if (!st || !st.clock) { $("clocks").hidden = true; return; }
    $("clocks").hidden = false;
    var el = Date.now() - clockBase;
    ["red", "blue"].forEach(function (s, i) {
      var ms = st.clock.left[i] - (st.clock.running && st.toMove === s ? el : 0);
      ms = Math.max(0, ms);
      var m = Math.floor(ms / 60000), sec = Math.floor(ms / 1000) % 60;
      $("clock-" + s).textContent = s + " " + m + ":" + (sec < 10 ? "0" : "") + sec;
    });
  }
  function show(next) {
    if (st && next.version < st.version) { return; }
    var first = !st || st.phase !== next.phase;
    st = next; clockBase = Date.now();
    if (st.result && !revealed) { api("GET", "/api/reveal").then(function (j) { revealed = j.board; draw(); }).catch(function () {}); }
    if (st.phase === "setup" && (first || !draft)) {
      draft = st.setup || null;
      if (!draft) { try { draft = JSON.parse(localStorage.getItem("strategobot-setup-" + st.variant)); } catch (e) { draft = null; } }
      if (!draft || draft.length !== 4) { draft = [[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0]]; }
    }
    draw();
  }
  function listen() {
    fetch("/api/events", { headers: { "X-Strategobot-Capability": token } }).then(function (r) {
      if (!r.ok) { return r.json().then(function (j) { throw new Error(j.error); }); }
      var reader = r.body.getReader(), dec = new TextDecoder(), buf = "";
      function pump() {
        return reader.read().then(function (x) {
          if (x.done) { throw new Error("closed"); }
          buf += dec.decode(x.value, { stream: true });
          var i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            var ev = buf.slice(0, i); buf = buf.slice(i + 2);
            ev.split("\n").forEach(function (line) { if (line.indexOf("data: ") === 0) { show(JSON.parse(line.slice(6))); } });
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (e) {
      if (e.message !== "closed") { $("status").textContent = e.message; document.body.dataset.refused = "1"; return; }
      setTimeout(listen, 2000);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!token) { $("status").textContent = "This page needs a link from the bot."; return; }
    history.replaceState(null, "", location.pathname);
    $("board").addEventListener("click", function (e) { var b = e.target.closest(".sq"); if (b) { click(+b.dataset.sq); } });
    $("board").addEventListener("keydown", function (e) {
      var b = e.target.closest(".sq"); if (!b) { return; }
      var all = Array.prototype.slice.call($("board").querySelectorAll(".sq")), i = all.indexOf(b), k = e.key;
      var d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10 }[k];
      if (d !== undefined) { var n = all[i + d]; if (n) { b.tabIndex = -1; n.tabIndex = 0; n.focus(); } e.preventDefault(); return; }
      if (st.phase === "setup") {
        var r = SHORT.indexOf(k.toUpperCase() === "0" ? "10" : k.toUpperCase());
        if (k === "Backspace" || k === "Delete") { place(+b.dataset.sq, 0); e.preventDefault(); }
        else if (r > 0) { place(+b.dataset.sq, r); e.preventDefault(); }
      }
    });
    $("board").addEventListener("dragstart", function (e) { var b = e.target.closest(".sq"); if (b) { e.dataTransfer.setData("text/plain", "sq:" + b.dataset.sq); } });
    $("board").addEventListener("dragover", function (e) { e.preventDefault(); });
    $("board").addEventListener("drop", function (e) {
      e.preventDefault();
      var b = e.target.closest(".sq"); if (!b) { return; }
      var d = e.dataTransfer.getData("text/plain"), to = +b.dataset.sq;
      if (d.indexOf("rank:") === 0) { place(to, +d.slice(5)); }
      else if (d.indexOf("sq:") === 0) {
        var from = +d.slice(3);
        if (st.phase === "setup") { swap(from, to); } else if (targets.call(null, sel = from)[to]) { move(from, to); }
      }
    });
    $("tray").addEventListener("dragstart", function (e) { var b = e.target.closest("button"); if (b) { e.dataTransfer.setData("text/plain", "rank:" + b.dataset.rank); } });
    $("tray").addEventListener("click", function (e) { var b = e.target.closest("button"); if (b) { trayRank = trayRank === +b.dataset.rank ? 0 : +b.dataset.rank; drawTray(); } });
    $("random").addEventListener("click", function () { api("POST", "/api/random", {}).then(function (j) { draft = j.setup; saveLocal(); draw(); }).catch(refuse); });
    $("save").addEventListener("click", function () { api("POST", "/api/setup", { version: st.version, setup: draft, confirm: false }).catch(refuse); });
    $("confirm").addEventListener("click", function () { api("POST", "/api/setup", { version: st.version, setup: draft, confirm: true }).catch(refuse); });
    $("resign").addEventListener("click", function () { if (confirm("Resign this match?")) { api("POST", "/api/resign", { version: st.version }).catch(refuse); } });
    $("draw").addEventListener("click", function () {
      var accept = st.drawOfferBy && st.drawOfferBy !== mySide();
      if (confirm(accept ? "Accept the draw?" : "Offer a draw?")) { api("POST", "/api/draw", { version: st.version, answer: accept ? "accept" : "offer" }).catch(refuse); }
    });
    $("first").addEventListener("click", function () { goto(0); });
    $("prev").addEventListener("click", function () { goto(step < 0 ? (st.history || []).length - 1 : Math.max(0, step - 1)); });
    $("next").addEventListener("click", function () { goto(step < 0 ? -1 : step + 1); });
    $("last").addEventListener("click", function () { goto(-1); });
    setInterval(tick, 500);
    listen();
  });
})();

"use strict";
// The board in the browser. The capability is the URL's fragment: never sent
// to the server in a URL, only in a header of each API request. Every text
// comes from /api/texts, in the viewer's language and piece numbering.
(function () {
  // The link's token, kept for this tab (sessionStorage, never sent in a
  // URL) so that a reload works once the fragment has left the address bar.
  var TOKEN_KEY = "strategobot-link";
  var token = location.hash.slice(1);
  try {
    if (token) { sessionStorage.setItem(TOKEN_KEY, token); } else { token = sessionStorage.getItem(TOKEN_KEY) || ""; }
  } catch (e) { /* storage off: a reload needs the link again */ }
  // BUILD is the bot's build this script is of: the ?v= of its address,
  // which the page's links carry. Every API answer names the build the bot
  // serves now (X-Strategobot-Build): another one, the bot was upgraded
  // while the page was open (current).
  var BUILD = (function () { var s = document.currentScript, m = s && /[?&]v=([^&]+)/.exec(s.src); return m ? m[1] : ""; })();
  var RELOADED_KEY = "strategobot-reloaded"; // the builds this tab loaded itself again for
  var TRAY_ORDER = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 12, 13];
  var LAKES = [42, 43, 46, 47, 52, 53, 56, 57];
  var SIDES = ["red", "blue"], MARSHAL = 10, SCOUT = 2, BOMB = 12, FLAG = 13;
  var L = null; // the texts
  var st = null, revealed = null, saved = null, sel = -1, focusSq = -1, trayRank = 0, trayFocus = 0, draft = null, step = -1, past = null, asking = false;
  var setupOK = false; // the live check accepts the draft: it may be saved or kept
  // offset is the server's clock minus this browser's, from the states'
  // "now", the time the server sent each. A state read late (a phone's tab
  // frozen in the background with it in its buffer) would set the clock
  // back by as long as it waited, and show that much more time left than
  // the server gives: a stream's first state, read as it comes, sets the
  // offset, and a later one only moves it on (the least late is the best;
  // a browser's clock set forward meanwhile counts short, never long, until
  // the next stream).
  var offset = 0;
  var $ = function (id) { return document.getElementById(id); };
  var langQ = "lang=" + encodeURIComponent(navigator.language || "en");
  // A spectator picks the numbering (a player's comes from their settings).
  var classic = false;
  try { classic = localStorage.getItem("strategobot-numbering") === "classic"; } catch (e) { /* private mode */ }
  function query() { return langQ + (classic ? "&numbering=classic" : ""); }

  // fmt fills a text's {1}, {2} placeholders. Before the texts have come
  // there are no words to say anything in: "", never the text's name.
  function fmt(key) {
    var args = arguments;
    return (L ? L.t[key] : "").replace(/\{(\d)\}/g, function (_, n) { return args[+n]; });
  }
  function api(method, path, body) {
    var init = { method: method, headers: { "X-Strategobot-Capability": token } };
    path += (path.indexOf("?") < 0 ? "?" : "&") + query();
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    // No answer at all (the network is gone) is said in the reader's words,
    // not the browser's English; so is the answer of the admin's proxy, not
    // the bot's, that the bot is away (502, 503, 504): to try again soon.
    return fetch(path, init).catch(function () { throw failure(0, fmt("offline")); }).then(function (r) {
      if (!current(r)) { throw failure(0, fmt("upgraded")); }
      var ct = r.headers.get("Content-Type") || "";
      if (ct.indexOf("json") < 0) { if (!r.ok) { throw failure(r.status, fmt(r.status >= 502 && r.status <= 504 ? "offline" : "failed")); } return r; }
      return r.json().then(function (j) { if (!r.ok) { throw failure(r.status, j.error || fmt("failed")); } return j; });
    });
  }
  // current says whether the page is of the build the bot that answered r
  // serves. A page of another build (the bot was upgraded while it was
  // open) is done with: it loads itself again, new script, style and texts,
  // its draft kept in the tab (saveLocal); if it did so for that build
  // already and is still not of it (a proxy that keeps the old page), or
  // cannot note that it did, it says to reload it and stops, rather than
  // load itself again and again. A page that comes up of the bot's build
  // forgets the builds it loaded itself again for (once: forget), so that
  // the next upgrade, or one rolled back and made again, loads it again too.
  var outdated = false, forget = true;
  function current(r) {
    var b = r.headers.get("X-Strategobot-Build");
    if (forget && b && b === BUILD) {
      forget = false;
      try { sessionStorage.removeItem(RELOADED_KEY); } catch (e) { /* storage off */ }
    }
    if (outdated || !b || !BUILD || b === BUILD) { return !outdated; }
    outdated = true;
    try {
      var seen = (sessionStorage.getItem(RELOADED_KEY) || "").split(" ");
      if (seen.indexOf(b) < 0) { sessionStorage.setItem(RELOADED_KEY, seen.concat([b]).join(" ").trim()); location.reload(); return false; }
    } catch (e) { /* storage off: it cannot know whether it did */ }
    refusedPage(fmt("upgraded"));
    return false;
  }
  function failure(status, text) { var e = new Error(text); e.status = status; return e; }
  // retryable says whether a failure may pass by itself: too many requests,
  // the server's trouble, the network (no status). A refused link does not.
  function retryable(e) { return !e.status || e.status === 429 || e.status >= 500; }
  // backoff is the wait before try n+1: doubling up to half a minute, with
  // jitter, so that pages dropped together do not come back together.
  function backoff(n) { return Math.min(30000, 1000 * Math.pow(2, n)) * (0.5 + Math.random() / 2); }
  // trouble is what keeps the page from being live (its link refused, its
  // connection lost and not back yet): the status line says it, rather
  // than whose move it is, until a stream brings the board again.
  var trouble = "";
  function troubled(text) { trouble = text; put($("status"), text); }
  // put writes a live region's text only when it changes: a text written
  // again, though the same, is a change a screen reader may say again (the
  // status line after every piece placed, a hint after every swap).
  function put(e, text) { if (e.textContent !== text) { e.textContent = text; } }
  // refusedPage shows why the page cannot work, for good.
  function refusedPage(text) { troubled(text); document.body.dataset.refused = "1"; }
  // A refusal may say until when, in Discord's time markup (see stamp).
  // The set-up's hint gives way to it, as the eye sees (both would say the
  // same of a set-up refused), until the next step (click, check).
  // refusedAt is the number of set-up checks asked for when the last
  // refusal came: their answers leave the hint to the next step (check).
  var refusedAt = 0;
  function refuse(e) { $("refusal").textContent = L ? stamp(e.message) : e.message; $("done").textContent = ""; put($("hint"), ""); refusedAt = checks || 0; }
  // act sends a player's action, on the board as the page shows it (basis).
  // Refused because the board changed meanwhile, it brings the current state
  // at once, so that the next try works.
  //
  // An action made on a board (a move, a resignation, a draw's) is made
  // once: until the board it makes comes (another basis), or its refusal,
  // the page sends none on the board it was made on (sentOn), as a second
  // tap on a slow network would, to be refused though the first went
  // through; nor may a piece be picked up meanwhile (myTurn). Another board
  // come (show) is the end of it: a board may come back as it was (a draw
  // offered, then declined), and is then played on.
  var sentOn = null, unanswered = null;
  function lost(e) { return !e.status || (e.status >= 502 && e.status <= 504); }
  var streamed = 0; // the states the event streams have brought
  function busy() { return sentOn !== null && !!st && st.basis === sentOn; }
  function act(path, body) {
    if (body && body.basis) {
      if (busy()) { return Promise.resolve(undefined); }
      sentOn = body.basis;
    }
    var answered = function () { document.body.dataset.acted = (+document.body.dataset.acted || 0) + 1; }; // for tests: answers so far
    return api("POST", path, body).then(function (j) { answered(); return j; }, function (e) { answered(); throw e; }).catch(function (e) {
      if (body && body.basis && body.basis === sentOn) { sentOn = null; }
      // No answer (the network, or the bot away behind its proxy) says
      // nothing of whether the action was made: a board come since its
      // sending shows what became of it, and what the page says of the
      // loss goes with the board it was sent on (unanswered, see show).
      if (body && body.basis && lost(e)) {
        if (st.basis !== body.basis) { return; }
        unanswered = body.basis;
      }
      refuse(e);
      // A state the stream brings meanwhile is as new or newer, and the
      // stream brings every later change: the answer then is not shown.
      var at = streamed;
      if (e.status === 409) { api("GET", "/api/state").then(function (j) { if (at === streamed) { show(j); } }).catch(function () { /* the stream catches up */ }); }
    });
  }
  function sqName(i) { return String.fromCharCode(65 + i % 10) + (Math.floor(i / 10) + 1); }
  function mySide() { return st && st.viewer !== "public" ? st.viewer : ""; }
  function sideName(s) { return L.sides[SIDES.indexOf(s)]; }
  // order is the display order: the viewer's own side at the bottom.
  function order() {
    var out = [], r, c;
    for (r = 0; r < 10; r++) { for (c = 0; c < 10; c++) { out.push(mySide() === "blue" ? r * 10 + (9 - c) : (9 - r) * 10 + c); } }
    return out;
  }
  function setupCell(side, sq) {
    var row = Math.floor(sq / 10), col = sq % 10;
    if (side === "red") { return row <= 3 ? [3 - row, col] : null; }
    return row >= 6 ? [row - 6, 9 - col] : null;
  }
  function settingUp() { return st.phase === "setup" && mySide() && !st.ready[SIDES.indexOf(mySide())]; }
  function cellAt(sq) {
    if (st.phase === "setup") {
      var rc = setupCell(mySide(), sq);
      if (rc && draft && draft[rc[0]][rc[1]]) { return { s: mySide(), r: draft[rc[0]][rc[1]] }; }
      return {};
    }
    return (step >= 0 && past ? past.board : revealed || st.board || [])[sq] || {};
  }
  // goto shows the board after move n (now when n is past the last). A
  // step is on its way for a moment: the next press of a key steps on from
  // it (want), not from the board shown, and only the last step asked for
  // is shown when its board comes (asked), not one asked for before it
  // that comes after it, nor one asked for before End.
  var want = -1, asked = 0;
  function goto(n) {
    var total = (st.history || []).length, k = ++asked;
    if (n < 0 || n >= total) { want = step = -1; past = null; draw(); follow(); sayStep(total); return; }
    want = n;
    api("GET", "/api/replay?ply=" + n).then(function (j) { if (k === asked) { step = n; past = j; draw(); follow(); sayStep(n); } })
      .catch(function (e) { if (k === asked) { want = step; refuse(e); } });
  }
  function moves() { return (st.legal || []).concat(st.infiltrate || []); }
  function targets() {
    var t = {};
    if (st.phase !== "playing" || sel < 0 || step >= 0) { return t; }
    moves().forEach(function (m) { if (m[0] === sel) { t[m[1]] = true; } });
    return t;
  }
  // label says exactly what this viewer may know of a square.
  function label(sq, c) {
    var n = sqName(sq);
    if (!c.s) { return fmt(LAKES.indexOf(sq) >= 0 ? "sqLake" : "sqEmpty", n); }
    if (c.r) { return c.s === mySide() ? fmt("sqOwn", n, L.pieces[c.r]) : fmt("sqKnown", n, sideName(c.s), L.pieces[c.r]); }
    return fmt(c.k ? "sqScout" : c.m ? "sqMoved" : "sqHidden", n, sideName(c.s));
  }
  function lastMove() {
    var h = st.history || [];
    if (step >= 0) { return step > 0 ? h[step - 1] : null; }
    return h.length ? h[h.length - 1] : null;
  }
  // drawBoard updates the squares in place: a square is the same button from
  // one draw to the next, so that a click or a drag under way when a live
  // update arrives still lands on its square (a button replaced between the
  // press and the release would lose the click).
  var shownOrder = "";
  function drawBoard() {
    var board = $("board"), t = targets(), ord = order(), last = lastMove(), setup = settingUp();
    if (focusSq < 0 || ord.indexOf(focusSq) < 0) { focusSq = ord[90]; }
    if (shownOrder !== ord.join()) {
      shownOrder = ord.join();
      board.textContent = "";
      var row;
      ord.forEach(function (sq, i) {
        if (i % 10 === 0) { row = document.createElement("div"); row.setAttribute("role", "row"); row.className = "row"; board.appendChild(row); }
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("role", "gridcell");
        b.dataset.sq = sq;
        // The coordinates the moves are written in, on the board's edges.
        if (i >= 90) { b.dataset.file = sqName(sq).charAt(0); }
        if (i % 10 === 0) { b.dataset.row = sqName(sq).slice(1); }
        row.appendChild(b);
      });
    }
    board.classList.toggle("past", step >= 0);
    // A past move's board is named as one, as its colour and the note
    // under it show it: its squares are not the board now. Over, every
    // move's board shows both armies, not the board as the player knew it.
    board.setAttribute("aria-label", step < 0 ? fmt("board") : st.result ? fmt("replayAt", String(step), String((st.history || []).length)) : fmt("replayNote", String(step)));
    // The squares a Scout ran over carry a trail, across the board or up
    // and down it, as in the pictures (a strike from afar crossed nothing).
    var trail = {};
    if (last && !last.g) {
      var d = Math.floor(last.f / 10) === Math.floor(last.t / 10) ? 1 : last.f % 10 === last.t % 10 ? 10 : 0;
      var mark = d === 1 ? " trail-h" : " trail-v";
      if (last.t < last.f) { d = -d; }
      for (var q = last.f + d; d && q !== last.t; q += d) { trail[q] = mark; }
    }
    var hadFocus = board.contains(document.activeElement);
    Array.prototype.forEach.call(board.querySelectorAll("[data-sq]"), function (b) {
      var sq = +b.dataset.sq, c = cellAt(sq), lab = label(sq, c);
      var isLast = last && (sq === last.f || sq === last.t);
      // A piece that moved like a Scout is one, as the picture shows it.
      var rank = c.s ? c.r || (c.k ? SCOUT : 0) : 0;
      // zone: the squares the player sets up on. A piece's marks are what
      // its cell says and nothing else, as in the pictures: back, a piece
      // whose rank the viewer does not know; known, one whose rank is
      // public; moved, one that moved and is not known. A last move's
      // squares: from, and to or battle; those it ran over, a trail.
      b.className = "sq" + (LAKES.indexOf(sq) >= 0 ? " lake" : "") + (setup && setupCell(mySide(), sq) ? " zone" : "") +
        (c.s ? " " + c.s + (!rank ? " back" : rank === BOMB ? " bomb" : rank === FLAG ? " flag" : "") + (c.v || c.k ? " known" : c.m ? " moved" : "") : "") +
        (sq === sel ? " sel" : "") + (t[sq] ? " target" : "") +
        (isLast ? " last" + (sq === last.f ? " from" : last.o || last.g ? " battle" : " to") : trail[sq] || "");
      b.draggable = !!c.s && c.s === mySide() && step < 0;
      // A Bomb and a Flag are symbols, as in the pictures; the label says what they are.
      var text = rank && rank !== BOMB && rank !== FLAG ? L.labels[rank] : "";
      if (b.textContent !== text) { b.textContent = text; }
      if (sq === sel) { lab = fmt("selected", lab); }
      if (t[sq]) { lab = fmt("target", lab); }
      if (isLast) { lab = fmt("lastMoved", lab); } else if (trail[sq]) { lab = fmt("trail", lab); }
      b.setAttribute("aria-label", lab);
      if (sq === sel) { b.setAttribute("aria-selected", "true"); } else { b.removeAttribute("aria-selected"); }
      b.tabIndex = sq === focusSq ? 0 : -1;
    });
    var f = board.querySelector('[data-sq="' + focusSq + '"]');
    if (hadFocus && document.activeElement !== f) { f.focus(); }
  }
  function draw() {
    var active = document.activeElement;
    drawBoard();
    var setup = settingUp();
    $("tray").hidden = !setup;
    $("random").hidden = $("confirm").hidden = !setup;
    // Only a set-up the check accepts can be saved or kept: a partial one
    // stays in this browser meanwhile (saveLocal). The buttons are disabled,
    // not hidden, so that Confirm does not move under the pointer when the
    // check's answer comes.
    $("save").hidden = $("keepSetup").hidden = !setup;
    $("save").disabled = $("keepSetup").disabled = !setupOK;
    $("saved").hidden = !setup || !saved || !saved.length;
    var playing = st.phase === "playing" && !!mySide() && !st.result;
    var offered = st.drawOfferBy && st.drawOfferBy !== mySide();
    $("resign").hidden = $("draw").hidden = !playing;
    $("decline").hidden = !(playing && offered);
    // Its maker may take it back, as with /stratego draw action:decline.
    $("withdrawDraw").hidden = !(playing && st.drawOfferBy === mySide());
    $("draw").textContent = fmt(offered ? "acceptDraw" : "offerDraw");
    $("draw").disabled = st.drawOfferBy === mySide();
    var t = st.time || {};
    // With no gifts left there is nothing to give: no button, as with no
    // proposals to pause left (a disabled one would not say why).
    $("giveTime").hidden = !(playing && t.canGive && t.giftsLeft > 0);
    // A proposal to pause is answered here as with the buttons of its DM.
    $("pause").hidden = $("declinePause").hidden = !(playing && t.offer && t.offer.by !== mySide());
    // Its proposer may take it back, as with /stratego pause action:decline.
    $("withdrawPause").hidden = !(playing && t.offer && t.offer.by === mySide());
    $("pauseDays").hidden = $("proposePause").hidden = !(playing && t.canPause);
    $("download").hidden = !st.result;
    $("numbering").hidden = !!mySide();
    $("numbering").textContent = fmt(classic ? "numClassic" : "numModern", L.ranks[MARSHAL], L.labels[MARSHAL]);
    if (setup) { drawTray(); }
    $("title").textContent = fmt("versus", st.players[0], st.players[1], L.variant);
    var s;
    if (st.phase === "setup") { s = fmt(setup ? "setup" : mySide() ? "setupWaiting" : "setupWatching"); }
    else if (st.phase === "abandoned") { s = L.result || fmt("abandoned"); } // why: the texts say it
    else if (st.result) { s = L.result || ""; }
    else { s = st.toMove === mySide() ? fmt("yourMove") : fmt("toMove", sideName(st.toMove)); }
    put($("status"), trouble || s);
    if (!setup) { checkText = ""; put($("hint"), ""); }
    // The keys' help tells what they do for this reader now. A Bomb and a
    // Flag show symbols, not their letters; a 10 is typed as 0.
    var ten = L.labels.indexOf("10") >= 0;
    var total = (st.history || []).length;
    $("keys").textContent = (setup ? fmt("keysSetup", fmt(ten ? "keysTen" : "keysNoTen")) : playing ? fmt("keysPlay") : fmt("keysWatch")) +
      (total ? " " + fmt("keysReplay") : "");
    $("replay").hidden = !total;
    $("ply").textContent = fmt("replayAt", String(step < 0 ? total : step), String(total));
    $("note").textContent = st.result ? fmt("revealNote") : step >= 0 ? fmt("replayNote", String(step)) : "";
    drawLost();
    // The moves' buttons, too, stay from one draw to the next (see drawBoard).
    var hist = $("history");
    while (hist.children.length > total) { hist.lastChild.remove(); }
    (st.history || []).forEach(function (m, i) {
      // Each move opens the board as it was after it, as on lichess.
      var li = hist.children[i], b;
      if (!li) {
        li = document.createElement("li"); b = document.createElement("button");
        b.type = "button"; b.dataset.ply = i + 1;
        li.appendChild(b); hist.appendChild(li);
      }
      b = li.firstChild;
      if (b.textContent !== notation(m)) { b.textContent = notation(m); }
      if (step === i + 1 || (step < 0 && i + 1 === total)) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); }
    });
    rove(hist);
    showCurrent(hist);
    tick();
    // A control that had the focus and is gone now, its action done (Resign
    // at the end, Withdraw once withdrawn), or the tray it was on put away
    // (the set-up confirmed elsewhere), hands it to the board where the
    // keyboard left it, not to the top of the page; the page does not scroll.
    if (active && (($("actions").contains(active) && (active.hidden || active.disabled)) || ($("tray").contains(active) && $("tray").hidden))) { focusBoard(); }
  }
  function focusBoard() { $("board").querySelector('[data-sq="' + focusSq + '"]').focus({ preventScroll: true }); }
  // The list of moves is one stop of the Tab key, as the board and the
  // tray are (a roving tabindex): the move it has the focus on, or else
  // the move shown (the first at the start), not hundreds of stops in a
  // long match. In it the arrow keys step through the moves as elsewhere
  // on the page, up and down too (onReplayKey), and the focus goes with
  // the move shown (follow); Enter on a move, or a click, opens it.
  function rove(hist) {
    var a = document.activeElement, stop = hist.contains(a) && a.dataset.ply ? a : hist.querySelector("[aria-current]") || hist.firstChild && hist.firstChild.firstChild;
    Array.prototype.forEach.call(hist.querySelectorAll("button"), function (b) { b.tabIndex = b === stop ? 0 : -1; });
  }
  // follow gives the focus in the list to the move shown, once a step of
  // the replay is: a live move that arrives does not take it.
  function follow() {
    var hist = $("history"), b = hist.querySelector("[aria-current]") || hist.firstChild && hist.firstChild.firstChild;
    if (!b || !hist.contains(document.activeElement) || document.activeElement === b) { return; }
    b.focus(); // into view in the list (the start has no move shown to scroll to)
    rove(hist);
  }
  // showCurrent scrolls the list of moves to the one shown when that
  // changes (the newest, as a move arrives), and only the list: the page
  // stays where the reader has it.
  var shownCurrent = null;
  function showCurrent(hist) {
    var cur = hist.querySelector("[aria-current]"), li = cur && cur.parentNode;
    if (!li || li === shownCurrent) { return; }
    shownCurrent = li;
    if (li.offsetTop < hist.scrollTop || li.offsetTop + li.offsetHeight > hist.scrollTop + hist.clientHeight) {
      hist.scrollTop = li.offsetTop - (hist.clientHeight - li.offsetHeight) / 2;
    }
  }
  // drawLost lists each side's lost pieces (shown in battle, so known to all)
  // as the board shown knows them.
  function drawLost() {
    var list = $("lost"), lost = (step >= 0 && past ? past : st).captured || [];
    list.textContent = "";
    list.hidden = st.phase === "setup";
    SIDES.forEach(function (side, i) {
      var parts = [];
      (lost[i] || []).forEach(function (n, r) { if (n > 0) { parts.push((n > 1 ? n + "× " : "") + L.pieces[r]); } });
      var li = document.createElement("li");
      li.className = side;
      li.textContent = parts.length ? fmt("lost", sideName(side), parts.join(", ")) : fmt("lostNone", sideName(side));
      list.appendChild(li);
    });
  }
  // notation writes a move as the bot does, guesses and battles in the viewer's numbering.
  function notation(m) {
    var s = sqName(m.f) + (m.g ? "~" : m.a || m.d ? "x" : "-") + sqName(m.t) + (m.g ? "=" + L.labels[m.g] : "");
    if (m.a && m.d) { s += " (" + L.labels[m.a] + ":" + L.labels[m.d] + ")"; }
    return sideName(m.s) + " " + s;
  }
  function remaining() {
    var left = st.army.slice(), r, c;
    for (r = 0; r < draft.length; r++) { for (c = 0; c < 10; c++) { if (draft[r][c]) { left[draft[r][c]]--; } } }
    return left;
  }
  // drawTray updates the tray's pieces in place, as drawBoard the squares.
  // The tray is a list box, one stop of the Tab key as the board is (a
  // roving tabindex: trayFocus, the piece it stops on), moved around with
  // the arrow keys (onTrayKey); Enter, Space or a click picks a piece
  // (trayRank). A piece none of which is left stays focusable, marked
  // unavailable (aria-disabled), so that the stop never vanishes.
  function drawTray() {
    var tray = $("tray"), left = remaining();
    if (!tray.firstChild) {
      TRAY_ORDER.forEach(function (rank) {
        if (!st.army[rank]) { return; }
        var b = document.createElement("button");
        b.type = "button"; b.draggable = true; b.dataset.rank = rank; b.setAttribute("role", "option");
        tray.appendChild(b);
      });
    }
    if (!tray.querySelector('[data-rank="' + trayFocus + '"]')) { trayFocus = trayRank || +tray.firstChild.dataset.rank; }
    Array.prototype.forEach.call(tray.children, function (b) {
      // A piece as the pictures' trays show it: a small tile of the
      // player's side with its label or symbol, and how many are left.
      var rank = +b.dataset.rank, symbol = rank === BOMB ? " bomb" : rank === FLAG ? " flag" : "";
      var label = symbol ? "" : L.labels[rank], text = label + left[rank];
      if (b.textContent !== text) {
        var tile = document.createElement("span");
        tile.className = "mini " + mySide() + symbol;
        tile.textContent = label;
        b.textContent = "";
        b.append(tile, String(left[rank]));
      }
      b.setAttribute("aria-label", fmt("left", L.pieces[rank], String(left[rank])));
      b.setAttribute("aria-selected", rank === trayRank ? "true" : "false");
      b.setAttribute("aria-disabled", left[rank] <= 0 ? "true" : "false");
      b.draggable = left[rank] > 0;
      b.tabIndex = rank === trayFocus ? 0 : -1;
    });
  }
  // hint says why a step of the set-up did nothing, or what the live check
  // of the draft finds (checkText), in a polite live region of its own
  // (#hint): said once the screen reader is done speaking, and not again
  // while it is the same. The alert (#refusal), which interrupts, is for a
  // refusal of what the player did; one region whose politeness changed
  // with its text would not do, screen readers taking a region's
  // politeness as it was when they met it.
  // A step that did nothing (again) says why again: it was a step (said).
  var checkText = "";
  function hint(text, said) { if (said) { $("hint").textContent = text; } else { put($("hint"), text); } }
  // outsideZone says that a square off the player's rows takes no piece.
  function outsideZone() { hint(fmt("outsideZone"), true); }
  function place(sq, rank) {
    var rc = setupCell(mySide(), sq);
    if (!rc) { outsideZone(); return; }
    if (rank && rank !== draft[rc[0]][rc[1]] && remaining()[rank] <= 0) {
      // A rank typed when none of it is left says so.
      hint(fmt("left", L.pieces[rank], "0"), true);
      return;
    }
    draft[rc[0]][rc[1]] = rank;
    if (trayRank && remaining()[trayRank] <= 0) { trayRank = 0; }
    edited(); saveLocal(); check(); draw();
  }
  function swap(a, b) {
    var ra = setupCell(mySide(), a), rb = setupCell(mySide(), b);
    if (!ra || !rb) { outsideZone(); return; }
    var x = draft[ra[0]][ra[1]]; draft[ra[0]][ra[1]] = draft[rb[0]][rb[1]]; draft[rb[0]][rb[1]] = x;
    edited(); saveLocal(); check(); draw();
  }
  // loadSaved fetches the player's saved set-ups for this match's army.
  // Not had (the bot away), they are asked for again with the next state
  // (show: saved is null again).
  function loadSaved() {
    api("GET", "/api/setups").then(function (j) {
      saved = j.setups;
      var menu = $("saved");
      while (menu.options.length > 1) { menu.remove(1); }
      saved.forEach(function (s, i) { var o = document.createElement("option"); o.value = String(i); o.textContent = s.name; menu.appendChild(o); });
      if (L) { draw(); }
    }).catch(function (e) { saved = null; refuse(e); });
  }
  function copy(rows) { return rows.map(function (row) { return row.slice(); }); }
  // useSaved puts the saved set-up chosen on the board. The menu keeps
  // showing it, so that the arrow keys step on from it (a closed menu
  // changes its choice at once); an edit of the board puts the menu back
  // on its first line (edited), so that the same set-up may be chosen again.
  function useSaved() {
    var i = $("saved").value;
    if (i === "" || !saved[+i]) { return; }
    draft = copy(saved[+i].setup);
    saveLocal(); check(); draw();
  }
  function edited() { $("saved").value = ""; }
  function keepSetup() {
    ask(fmt("askName"), [[fmt("keep"), true]], true).then(function (name) {
      if (!name) { return; }
      api("POST", "/api/setups", { name: name, setup: draft }).then(function () { $("done").textContent = fmt("kept", name); loadSaved(); }).catch(refuse);
    });
  }
  // The draft kept in this browser, for a reload, is this tab's alone
  // (sessionStorage, as the link's token is), gone when the tab closes: on
  // a shared computer the next user never finds it, though the set-up was
  // confirmed elsewhere. It is its match's and side's, and forgotten once
  // the set-up is confirmed, a secret no longer needed here.
  //
  // It is kept with the bot's draft it was made from (base: the one the
  // page opened with, Random's, or the one saved last). A reload takes it
  // back unless the bot's draft has changed since (typed in the DM, saved
  // on another page), which is then the newer.
  var base = null;
  function draftKey() { return "strategobot-setup-" + st.match + "-" + st.viewer; }
  function saveLocal() { try { sessionStorage.setItem(draftKey(), JSON.stringify({ draft: draft, base: base })); } catch (e) { /* private mode */ } }
  function loadLocal() {
    try {
      var k = JSON.parse(sessionStorage.getItem(draftKey()));
      if (k && k.draft && JSON.stringify(k.base) === JSON.stringify(st.setup || null)) { return k.draft; }
    } catch (e) { /* private mode */ }
    return null;
  }
  function forgetLocal() {
    try {
      sessionStorage.removeItem(draftKey());
      // Where older pages kept drafts, for as long as the browser lived.
      localStorage.removeItem(draftKey());
      localStorage.removeItem("strategobot-setup-" + st.variant);
    } catch (e) { /* private mode */ }
  }
  // check asks the rules engine for its refusal of the draft, if any.
  var checks = 0;
  // quiet (the draft the page opened with) shows no refusal: the player
  // has done nothing yet.
  function check(quiet) {
    var n = ++checks;
    setupOK = false; // until the answer on this draft: the last one was on another
    api("POST", "/api/check", { setup: draft, confirm: false }).then(function (j) {
      if (!quiet) { document.body.dataset.checked = (+document.body.dataset.checked || 0) + 1; } // for tests: answers so far
      if (n !== checks || !settingUp()) { return; } // an older draft's answer is stale, as is any once the set-up is over
      setupOK = !j.refusal;
      // A refusal since it was asked said it already: the hint waits for the next step.
      if (!quiet) { checkText = j.refusal || ""; if (n > refusedAt) { hint(checkText); } }
      if (L) { draw(); }
    }).catch(refuse);
  }
  function click(sq) {
    focusSq = sq;
    if (asking) { return; }
    $("refusal").textContent = $("done").textContent = "";
    if (settingUp()) {
      hint(checkText); // what a step that did nothing said is gone with the next
      // A square off the player's rows says so; a piece picked from the
      // tray stays picked, one from the board is let go.
      if (!setupCell(mySide(), sq)) { sel = -1; outsideZone(); draw(); return; }
      if (trayRank) { place(sq, trayRank); return; }
      if (sel >= 0 && sel !== sq) { swap(sel, sq); sel = -1; draw(); return; }
      sel = sel === sq ? -1 : sq; draw(); return;
    }
    if (!myTurn()) { return; }
    var t = targets();
    if (sel >= 0 && t[sq]) { move(sel, sq); return; }
    sel = sel !== sq && movable(sq) ? sq : -1;
    draw();
  }
  // myTurn says whether the player may move now: their turn, on the board
  // as it is (not a replay's step), the game not over, no action of theirs
  // on its way (busy).
  function myTurn() { return st.phase === "playing" && st.toMove === mySide() && step < 0 && !st.result && !busy(); }
  // movable says whether the player may move the piece on sq now.
  function movable(sq) {
    return myTurn() && cellAt(sq).s === mySide() && moves().some(function (m) { return m[0] === sq; });
  }
  // ask shows a question in a modal dialog; it resolves with the chosen value, or null.
  // With input, it asks for a text instead and resolves with it (trimmed), or null.
  // The end of the match closes it (closeAsk): nothing it asks can be done then.
  // A question whose Yes ends the match (safe) opens on Cancel, as one that
  // asks for what cannot be undone should: Enter pressed twice, or held a
  // moment too long on Resign, would answer it unseen.
  var closeAsk = null;
  function ask(text, choices, input, safe) {
    var d = $("ask"), box = $("ask-choices"), field = $("ask-input");
    $("ask-text").textContent = text; box.textContent = ""; asking = true;
    field.hidden = !input; field.value = "";
    return new Promise(function (resolve) {
      function done(v) {
        asking = false; closeAsk = null; d.close();
        // The browser hands the focus back to the control that asked; one a
        // live update has hidden meanwhile cannot take it (the focus stays
        // in the closed dialog, then falls to the top of the page), and the
        // board, where the keyboard was last, does.
        var a = document.activeElement;
        if (!a || a === document.body || d.contains(a)) { focusBoard(); }
        resolve(v);
      }
      closeAsk = done;
      function answer(v) { done(input ? (v && field.value.trim()) || null : v); }
      choices.forEach(function (ch) {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = ch[0]; b.setAttribute("aria-label", ch[2] || ch[0]);
        b.addEventListener("click", function () { answer(ch[1]); });
        box.appendChild(b);
      });
      field.onkeydown = function (e) { if (e.key === "Enter") { e.preventDefault(); answer(true); } };
      $("ask-no").onclick = function () { done(null); };
      d.oncancel = function (e) { e.preventDefault(); done(null); };
      d.showModal();
      (input ? field : safe ? $("ask-no") : box.firstChild).focus();
    });
  }
  // A move goes as made on the board it was chosen on (basis), though its
  // question is answered later: a board that came meanwhile (a move made
  // on Discord, a draw offered) had nothing chosen on it, and the bot
  // refuses the move as made on a board changed (act brings the new one).
  function move(from, to) {
    var inf = (st.infiltrate || []).some(function (m) { return m[0] === from && m[1] === to; });
    var plain = (st.legal || []).some(function (m) { return m[0] === from && m[1] === to; });
    var basis = st.basis;
    var send = function (guess) {
      sel = -1; focusSq = to;
      act("/api/move", { basis: basis, from: from, to: to, guess: guess || 0 });
    };
    if (!inf) { send(0); return; }
    // An Infiltrator next to its target may attack it or infiltrate it:
    // the player chooses, as on Discord.
    var choices = plain ? [[fmt("attack"), "attack"]] : [];
    for (var r = 1; r < L.labels.length; r++) { if (st.army[r]) { choices.push([L.labels[r], r, L.pieces[r]]); } }
    ask(fmt(plain ? "attackOrGuess" : "guess"), choices).then(function (g) {
      if (g === "attack") { send(0); } else if (g) { send(g); }
    });
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  // clock writes a time left as m:ss, or h:mm:ss from an hour on, and from
  // two days on as days and h:mm:ss ("3 days 23:05:50", not "95:05:50").
  function clock(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, d = Math.floor(h / 24);
    if (d >= 2 && L && L.days[d]) { return L.days[d] + " " + (h % 24) + ":" + two(m) + ":" + two(s % 60); }
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }
  // tick shows the time left: counted down to the server's deadline on the
  // server's clock (the deadline is sent only while a clock runs, and in
  // set-up while the invites are on their way: the earliest it can be).
  // While a pause or a vacation stops that clock (until st.stopped), the
  // deadline holds the stop already: the time left stands still at what it
  // will be when the clock runs again.
  function tick() {
    if (!st || !L) { $("clocks").hidden = true; return; }
    drawTime();
    var now = Date.now() + offset, live = st.deadline && !st.result ? st.deadline - Math.max(now, st.stopped || 0) : null;
    var texts = [];
    if (st.phase === "setup") {
      if (live !== null) { texts.push(["setupClock", clock(live)]); }
    } else if (st.clock) {
      SIDES.forEach(function (s, i) {
        var ms = st.clock.running && live !== null && st.toMove === s ? live : st.clock.left[i];
        texts.push(["clockOf", sideName(s), clock(ms)]);
      });
    } else if (live !== null) {
      texts.push(["turnClock", clock(live)]); // whose move: the status line says
    }
    $("clocks").hidden = !texts.length;
    ["clock-red", "clock-blue"].forEach(function (id, i) { showClock($(id), texts[i]); });
  }
  // showClock writes a clock's text (its key and arguments, the time last)
  // into e, the time in bold, so that it reads at a glance.
  function showClock(e, text) {
    if (!text) { e.textContent = ""; return; }
    var time = text[text.length - 1], parts = fmt.apply(null, text.slice(0, -1).concat(["\u0001"])).split("\u0001");
    if (e.textContent === parts.join(time)) { return; }
    e.textContent = parts[0];
    var b = document.createElement("b"); b.textContent = time; e.appendChild(b);
    e.appendChild(document.createTextNode(parts.slice(1).join(time)));
  }
  // when writes an instant (Unix ms) in the reader's own time zone.
  function when(ms) {
    return new Date(ms).toLocaleString(L.lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  }
  // fromNow writes how far an instant is from now, on the server's clock.
  function fromNow(ms) {
    var d = ms - (Date.now() + offset), a = Math.abs(d), rtf = new Intl.RelativeTimeFormat(L.lang, { numeric: "auto" });
    if (a >= 2 * 86400000) { return rtf.format(Math.round(d / 86400000), "day"); }
    if (a >= 2 * 3600000) { return rtf.format(Math.round(d / 3600000), "hour"); }
    return rtf.format(Math.round(d / 60000), "minute");
  }
  // stamp writes the time markup the texts share with Discord, <t:MS:f> and
  // <t:MS:R>, as a time of the reader's zone or as how far from now.
  function stamp(text) {
    return text.replace(/<t:(-?\d+):([fR])>/g, function (_, ms, style) { return style === "R" ? fromNow(+ms) : when(+ms); });
  }
  // timeTexts are what the board says of the match's time besides the
  // clocks, as the Discord board says it: a pause, vacations, a proposal to
  // pause (to the players), gifts of time.
  function timeTexts() {
    var t = st.time, out = [];
    if (st.result) { return out; }
    // A draw offer is told here too, next to its buttons: the status line
    // above the board keeps its length, and the board does not move.
    // By the offerer's name, or "you", as the Discord board tells it.
    if (st.drawOfferBy) { out.push(st.drawOfferBy === mySide() ? fmt("drawYou") : fmt("drawOffered", st.players[SIDES.indexOf(st.drawOfferBy)])); }
    if (!t) { return out; }
    if (t.paused) { out.push(fmt("paused", String(t.paused))); }
    SIDES.forEach(function (s, i) {
      if (t.away[i]) { out.push(s === mySide() ? fmt("awayYou", String(t.away[i])) : fmt("away", st.players[i], String(t.away[i]))); }
    });
    if (t.offer) {
      var days = L.days[t.offer.days] || String(t.offer.days);
      if (t.offer.by === mySide()) { out.push(fmt("pauseOffered", days)); } else {
        // "if you agree now": from when the state was sent, as the DM asks from when it is sent.
        out.push(fmt("pauseAsk", st.players[SIDES.indexOf(t.offer.by)], days, String((st.now || Date.now()) + t.offer.days * 86400000)));
      }
    }
    if (t.gifts) { out.push(fmt("gifts", st.players[0], String(t.gifts[0]), st.players[1], String(t.gifts[1]), L.gift || "")); }
    return out;
  }
  // drawTime shows timeTexts, keeping the lines that stay. A line is written
  // only when its text, its time markup unwritten, is new (the match's
  // news), and is then said (news, a live region); how far its times are
  // from now ("in 5 minutes") changes as the clock runs, in a part of its
  // own, and is not said: the line was read out again every minute.
  function drawTime() {
    var list = $("time"), texts = st && L ? timeTexts() : [], said = [], had = {};
    Array.prototype.forEach.call(list.children, function (li) { had[li.dataset.text] = li; });
    texts.forEach(function (text, i) {
      var li = had[text];
      delete had[text];
      if (!li) {
        li = document.createElement("li"); li.dataset.text = text;
        text.split(/(<t:-?\d+:R>)/).forEach(function (part, j) {
          if (!(j % 2)) { li.appendChild(document.createTextNode(stamp(part))); return; }
          var r = document.createElement("span");
          r.dataset.at = part.slice(3, part.indexOf(":", 3));
          li.appendChild(r);
        });
        said.push(li);
      }
      if (list.children[i] !== li) { list.insertBefore(li, list.children[i] || null); }
      Array.prototype.forEach.call(li.querySelectorAll("[data-at]"), function (r) {
        var away = fromNow(+r.dataset.at);
        if (r.textContent !== away) { r.textContent = away; }
      });
    });
    Object.keys(had).forEach(function (k) { had[k].remove(); });
    if (said.length) { $("news").textContent = said.map(function (li) { return li.textContent; }).join(" "); }
  }
  // frenchSpaces binds the space French writes before : ; ? ! » and after «
  // to its neighbour, so that no line of a text starts with the mark alone.
  function frenchSpaces(v) {
    if (typeof v === "string") { return v.replace(/ ([:;?!\u00bb])/g, "\u00a0$1").replace(/\u00ab /g, "\u00ab\u00a0"); }
    if (v && typeof v === "object") { Object.keys(v).forEach(function (k) { v[k] = frenchSpaces(v[k]); }); }
    return v;
  }
  function loadTexts() {
    return api("GET", "/api/texts").then(function (j) {
      L = j.lang === "fr" ? frenchSpaces(j) : j;
      if (st) { st.players = L.names; }
      // The server's own refusals in the language of the texts: a player's
      // is their setting, which their browser's may not be.
      langQ = "lang=" + encodeURIComponent(L.lang);
      document.documentElement.lang = L.lang;
      document.title = fmt("title");
      $("board").setAttribute("aria-label", fmt("board"));
      $("tray").setAttribute("aria-label", fmt("army"));
      Array.prototype.forEach.call(document.querySelectorAll("[data-t]"), function (e) { e.textContent = fmt(e.dataset.t); });
      Array.prototype.forEach.call(document.querySelectorAll("[data-l]"), function (e) { e.setAttribute("aria-label", fmt(e.dataset.l)); });
      // The days a pause may last, 1 to 14, in the reader's words; 3 unless chosen.
      var days = $("pauseDays"), chosen = days.value || "3";
      days.textContent = "";
      L.days.forEach(function (text, d) {
        if (!d) { return; }
        var o = document.createElement("option"); o.value = String(d); o.textContent = text; days.appendChild(o);
      });
      days.value = chosen;
    });
  }
  var wording = false; // the texts of the end asked for, not yet had
  function show(next, fresh) {
    var first = !st || st.phase !== next.phase;
    // Ended, or called off: the texts then say how, or why.
    var ended = (next.result && !(st && st.result)) || (next.phase === "abandoned" && !!st && st.phase !== "abandoned");
    var had = st ? (st.history || []).length : -1;
    if (next.basis !== sentOn) { sentOn = null; }
    if (unanswered !== null && next.basis !== unanswered) {
      if ($("refusal").textContent === fmt("offline")) { $("refusal").textContent = ""; }
      unanswered = null;
    }
    st = next;
    if (L) { st.players = L.names; } // as this reader names them: the computer in their language
    // A move that arrives is said to a screen reader, which would
    // otherwise hear only whose move it is now; those there on opening are not.
    var h = st.history || [];
    if (L && had >= 0 && h.length > had) { $("said").textContent = notation(h[h.length - 1]); }
    if (st.now) { offset = fresh ? st.now - Date.now() : Math.max(offset, st.now - Date.now()); }
    if (st.phase === "setup" && (first || !draft)) {
      base = st.setup || null;
      draft = loadLocal() || (base && copy(base)); // edited in place: never the base itself
      if (!draft || draft.length !== 4) { draft = [0, 0, 0, 0].map(function () { return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]; }); }
      setupOK = false;
      if (settingUp()) { check(true); }
    }
    // A set-up confirmed (here, or on Discord meanwhile) is the one shown:
    // the one that will be played, whatever the page had drafted.
    if (st.phase === "setup" && mySide() && !settingUp() && st.setup) { draft = copy(st.setup); }
    if (saved === null && settingUp()) { saved = []; loadSaved(); }
    if (mySide() && !settingUp()) { forgetLocal(); }
    // A piece selected stays so on its board only: a move made since (the
    // player's own on Discord, then the opponent's, both told at once as a
    // stream comes back) may have left another piece there, or none.
    if (st.phase !== "playing" || st.toMove !== mySide() || h.length !== had) { sel = -1; }
    if (ended) { want = step = -1; past = null; asked++; } // a frame fetched before the end hides what is now shown
    if (ended && closeAsk) { closeAsk(null); }
    if (st.result && !revealed) { api("GET", "/api/reveal").then(function (j) { revealed = j.board; if (L) { draw(); } }).catch(refuse); }
    // Over, the texts say how, or why (L.result): asked for as the end
    // comes, and again with the states that follow until they come (the
    // bot may go down just as the match ended, and its stream bring the
    // end again as it comes back). The board is drawn once they come, or
    // once they cannot be had.
    if (L && !L.result && (st.result || st.phase === "abandoned")) {
      if (!wording) {
        wording = true;
        loadTexts().then(function () {
          wording = false;
          if ($("refusal").textContent === fmt("offline")) { $("refusal").textContent = ""; } // had after all
          draw();
        }, function (e) { wording = false; refuse(e); draw(); });
      }
      return;
    }
    if (L) { draw(); }
  }
  // retry is the next try of what the network failed (the event stream,
  // the texts), due when its backoff ends; when the browser says the network
  // is back (online), it is made at once, not at most half a minute later.
  var retry = null;
  function later(fn, wait) {
    var r = { fn: fn };
    r.timer = setTimeout(function () { if (retry === r) { retry = null; } fn(); }, wait);
    retry = r;
  }
  function retryNow() {
    var r = retry;
    if (!r) { return; }
    retry = null; clearTimeout(r.timer); r.fn();
  }
  // listen reads the event stream. A stream that hears nothing, not even
  // the server's pings, for two and a half times their interval (which the
  // server names) died unheard: a laptop slept, a phone changed networks,
  // and the browser, which only reads, is never told. It is dropped and
  // opened again, and its first state is the board as it is now.
  //
  // A page in the background (its tab not the one shown, its window
  // minimised, a phone's other app in front) holds no stream (asleep): a
  // browser opens at most six HTTP/1.1 connections to a host and each
  // stream holds one, so that six boards open in tabs left none for a move
  // or another page. Shown again, it opens another (wake).
  var stream = null, asleep = false; // stream: the open stream's controller
  function listen(tries) {
    if (document.hidden) { asleep = true; return; }
    var stop = new AbortController(), quiet = 0, wait = 62500;
    stream = stop;
    function watch() { clearTimeout(quiet); quiet = setTimeout(function () { stop.abort(); }, wait); }
    watch();
    fetch("/api/events?" + query(), { headers: { "X-Strategobot-Capability": token }, signal: stop.signal }).then(function (r) {
      if (!current(r)) { clearTimeout(quiet); stop.abort(); return; }
      if (!r.ok) {
        return r.json().catch(function () { return {}; }).then(function (j) { throw failure(r.status, j.error || fmt("failed")); });
      }
      tries = 0;
      wait = 2.5 * (+r.headers.get("X-Strategobot-Ping") || 25000);
      watch();
      var reader = r.body.getReader(), dec = new TextDecoder(), buf = "", fresh = true;
      function pump() {
        return reader.read().then(function (x) {
          if (x.done) { throw new Error("closed"); }
          if (outdated) { stop.abort(); return; } // an action's answer named another build
          watch();
          buf += dec.decode(x.value, { stream: true });
          var i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            var ev = buf.slice(0, i); buf = buf.slice(i + 2);
            ev.split("\n").forEach(function (line) { if (line.indexOf("data: ") === 0) { streamed++; trouble = ""; show(JSON.parse(line.slice(6)), fresh); fresh = false; } });
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (e) {
      clearTimeout(quiet);
      if (stream === stop) { stream = null; }
      if (outdated || stop.slept) { return; }
      if (!retryable(e)) { refusedPage(e.message); return; }
      if (L) { troubled(fmt("connection")); }
      later(function () { listen(tries + 1); }, backoff(tries));
    });
  }
  // sleep lets go of the stream of a page gone to the background; wake
  // opens another once it is shown. A try due meanwhile (later) finds the
  // page hidden and sleeps too.
  function sleep() {
    if (!stream) { return; }
    stream.slept = true; stream.abort(); stream = null; asleep = true;
  }
  function wake() {
    if (!asleep || outdated) { return; }
    asleep = false; listen(0);
  }
  // start loads the texts, then listens; it tries again while the server
  // is busy or away.
  function start(tries) {
    loadTexts().then(function () { if (st) { draw(); } listen(0); }).catch(function (e) {
      if (outdated) { return; }
      if (!retryable(e)) { refusedPage(e.message); return; }
      put($("status"), e.status ? e.message : ""); // the server's words are in the page's language; said once
      later(function () { start(tries + 1); }, backoff(tries));
    });
  }
  // rankOfKey reads a typed rank in the viewer's numbering: "0" is 10.
  function rankOfKey(k) {
    k = k.toUpperCase();
    if (k === "0") { k = "10"; }
    if (k === "1" && L.labels.indexOf("1") < 0) { k = "10"; }
    return L.labels.indexOf(k);
  }
  // A key pressed with Ctrl, Alt or Meta is the browser's shortcut (find,
  // zoom, back), not a rank typed nor a step on the board.
  function onKey(e) {
    var b = e.target.closest(".sq"); if (!b || asking || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var ord = order(), i = ord.indexOf(+b.dataset.sq), k = e.key;
    var d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10, Home: -(i % 10), End: 9 - i % 10 }[k];
    if (d !== undefined) {
      var j = i + d;
      if ((k === "ArrowLeft" || k === "ArrowRight") && Math.floor(j / 10) !== Math.floor(i / 10)) { j = i; }
      if (j >= 0 && j < 100) {
        focusSq = ord[j];
        b.tabIndex = -1;
        var n = $("board").querySelector('[data-sq="' + focusSq + '"]'); n.tabIndex = 0; n.focus();
      }
      e.preventDefault(); return;
    }
    // Escape lets go of what is picked up: a piece of the board, or of the tray.
    if (k === "Escape" && (sel >= 0 || (trayRank && settingUp()))) { sel = -1; trayRank = 0; draw(); e.preventDefault(); return; }
    if (settingUp()) {
      if (k === "Backspace" || k === "Delete") { focusSq = +b.dataset.sq; place(focusSq, 0); e.preventDefault(); return; }
      var r = k.length <= 2 ? rankOfKey(k) : -1;
      if (r > 0) { focusSq = +b.dataset.sq; place(focusSq, r); e.preventDefault(); }
    }
  }
  // onTrayKey moves the focus along the tray: the arrow keys to the next or
  // the previous piece (the tray is a row, wrapped on a narrow screen: up
  // and down as left and right), Home and End to the first and the last.
  function onTrayKey(e) {
    var b = e.target.closest("#tray [data-rank]"); if (!b || asking || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var opts = Array.prototype.slice.call($("tray").children), i = opts.indexOf(b), k = e.key;
    if (k === "Escape" && trayRank) { trayRank = 0; drawTray(); e.preventDefault(); return; } // puts back the piece picked
    var j = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: opts.length - 1 }[k];
    if (j === undefined) { return; }
    e.preventDefault();
    if (j < 0 || j >= opts.length) { return; }
    trayFocus = +opts[j].dataset.rank;
    b.tabIndex = -1; opts[j].tabIndex = 0; opts[j].focus();
  }
  // pickTray picks the tray's piece b, or puts it back if it was picked.
  // A piece picked lets go of a square selected on the board (letGo): the
  // next tap puts the piece, and once none of it is left, the tap after
  // that selects a square, not a swap with one selected before.
  function pickTray(b) {
    var rank = +b.dataset.rank;
    trayFocus = rank;
    if (b.getAttribute("aria-disabled") === "true") { drawTray(); return; }
    trayRank = trayRank === rank ? 0 : rank;
    if (trayRank && letGo()) { return; }
    drawTray();
  }
  // letGo lets go of the square selected on the board, if any, and draws
  // the page; it says whether there was one.
  function letGo() {
    if (sel < 0) { return false; }
    sel = -1; draw();
    return true;
  }
  // The replay's steps, by its buttons and its keys.
  // sayStep says to a screen reader which move the board shows now, and
  // what it was, as a move that arrives is said (show): the keys' buttons
  // keep their names, and the squares are not read unasked.
  function sayStep(n) {
    var h = st.history || [];
    $("said").textContent = n > 0 ? fmt("replaySaid", String(n), String(h.length), notation(h[n - 1])) : fmt("replayAt", "0", String(h.length));
  }
  function prev() { var total = (st.history || []).length; if (want !== 0) { goto(want < 0 ? total - 1 : want - 1); } }
  function next() { if (want >= 0) { goto(want + 1); } }
  // onReplayKey steps through the moves as lichess does: the left and
  // right arrow keys, Home for the start and End for now. Not on the board,
  // whose arrow keys move around it, nor in a field or a question.
  function onReplayKey(e) {
    var k = e.key, t = e.target;
    if (asking || !st || !L || !(st.history || []).length || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    if (t && t.closest && t.closest("#board, input, select, textarea, dialog")) { return; }
    var inList = t && t.closest && t.closest("#history");
    if (k === "ArrowLeft" || (inList && k === "ArrowUp")) { prev(); } else if (k === "ArrowRight" || (inList && k === "ArrowDown")) { next(); } else if (k === "Home") { goto(0); } else if (k === "End") { goto(-1); } else { return; }
    e.preventDefault();
  }
  function confirmThen(question, fn, safe) { ask(question, [[fmt("yes"), true]], false, safe).then(function (y) { if (y) { fn(); } }); }
  function download() {
    api("GET", "/api/record").then(function (r) { return r.blob(); }).then(function (b) {
      var a = document.createElement("a");
      a.href = URL.createObjectURL(b); a.download = "stratego-match-" + st.match + ".xml"; // as /stratego record names it
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    }).catch(refuse);
  }
  document.addEventListener("DOMContentLoaded", function () {
    // Without a token the server's refusal says, in the page's language, that a link is needed.
    if (location.hash) { history.replaceState(null, "", location.pathname); }
    // Another link pasted into this tab (a fresh one for an expired one)
    // changes only the fragment, which loads nothing: the page starts again
    // with it, reading its token as on any load.
    window.addEventListener("hashchange", function () { if (location.hash.length > 1) { location.reload(); } });
    window.addEventListener("online", retryNow);
    document.addEventListener("visibilitychange", function () { if (document.hidden) { sleep(); } else { wake(); } });
    var board = $("board"), held = false; // held: a piece picked up selected by its drag
    // pickedIn is what a drag under way was begun for (at its dragstart):
    // "setup", a draft's piece; "play", a piece of the game; "", neither
    // (waiting, looking on). It is let go as that or as nothing: a drag of
    // the set-up let go once the set-up is over (confirmed on Discord
    // meanwhile, the game begun) moves no piece of the game, nor is a piece
    // of the tray placed on a set-up confirmed.
    var pickedIn = "";
    function phaseNow() { return settingUp() ? "setup" : st && st.phase === "playing" && mySide() ? "play" : ""; }
    board.addEventListener("click", function (e) { var b = e.target.closest(".sq"); if (b) { click(+b.dataset.sq); } });
    board.addEventListener("keydown", onKey);
    board.addEventListener("dragstart", function (e) {
      var b = e.target.closest(".sq"); if (!b) { return; }
      pickedIn = phaseNow();
      e.dataTransfer.setData("text/plain", "sq:" + b.dataset.sq);
      // A piece picked up shows where it may go while it is held, as on
      // lichess (drawn once the browser has taken the drag's picture).
      var sq = +b.dataset.sq;
      if (!settingUp() && movable(sq)) { sel = focusSq = sq; held = true; setTimeout(draw, 0); }
    });
    // A piece let go outside any square, or whose drag is cancelled
    // (Escape), goes back: nothing stays selected, as on lichess. A drop on
    // a square has done its part already (dragend comes after drop).
    board.addEventListener("dragend", function () {
      pickedIn = "";
      if (!held) { return; }
      held = false;
      if (sel >= 0) { sel = -1; draw(); }
    });
    board.addEventListener("dragover", function (e) { e.preventDefault(); });
    board.addEventListener("drop", function (e) {
      e.preventDefault();
      var b = e.target.closest(".sq"); if (!b) { return; }
      var d = e.dataTransfer.getData("text/plain"), to = +b.dataset.sq;
      if (!pickedIn || pickedIn !== phaseNow()) { if (sel >= 0) { sel = -1; draw(); } return; }
      if (d.indexOf("rank:") === 0) { place(to, +d.slice(5)); return; }
      if (d.indexOf("sq:") !== 0) { return; }
      var from = +d.slice(3);
      if (settingUp()) { swap(from, to); return; }
      sel = from;
      if (targets()[to]) { move(from, to); } else { sel = -1; draw(); }
    });
    $("tray").addEventListener("dragstart", function (e) {
      var b = e.target.closest("button"); if (!b) { return; }
      pickedIn = phaseNow();
      e.dataTransfer.setData("text/plain", "rank:" + b.dataset.rank);
      setTimeout(letGo, 0); // as a tap on it does (drawn once the browser has taken the drag's picture)
    });
    $("tray").addEventListener("dragend", function () { pickedIn = ""; });
    // A piece dragged from the board back onto the tray leaves the board.
    $("tray").addEventListener("dragover", function (e) { e.preventDefault(); });
    $("tray").addEventListener("drop", function (e) {
      e.preventDefault();
      var d = e.dataTransfer.getData("text/plain");
      if (d.indexOf("sq:") === 0 && pickedIn === "setup" && settingUp()) { place(+d.slice(3), 0); }
    });
    $("tray").addEventListener("click", function (e) { var b = e.target.closest("button"); if (b) { pickTray(b); } });
    $("tray").addEventListener("keydown", onTrayKey);
    // An answer that comes once the set-up is over (confirmed on Discord
    // meanwhile) changes nothing: the set-up confirmed is the one shown,
    // and no draft of it is kept in the browser.
    $("random").addEventListener("click", function () {
      api("POST", "/api/random", {}).then(function (j) {
        document.body.dataset.randomed = (+document.body.dataset.randomed || 0) + 1; // for tests: answers so far
        if (!settingUp()) { return; }
        draft = j.setup; base = copy(draft); edited(); saveLocal(); check(); draw();
      }).catch(refuse);
    });
    $("save").addEventListener("click", function () {
      var sent = copy(draft);
      act("/api/setup", { setup: sent, confirm: false }).then(function (j) {
        if (j && settingUp()) { base = sent; saveLocal(); $("refusal").textContent = ""; $("done").textContent = fmt("draftSaved"); }
      });
    });
    $("keepSetup").addEventListener("click", keepSetup);
    $("saved").addEventListener("change", useSaved);
    // Confirmed once: a second tap while the first is on its way would be
    // refused as already confirmed.
    var confirming = false;
    $("confirm").addEventListener("click", function () {
      if (confirming) { return; }
      confirming = true;
      act("/api/setup", { setup: draft, confirm: true }).then(function (j) { if (!j) { confirming = false; } });
    });
    $("resign").addEventListener("click", function () { confirmThen(fmt("askResign"), function () { act("/api/resign", { basis: st.basis }); }, true); });
    $("draw").addEventListener("click", function () {
      var accept = st.drawOfferBy && st.drawOfferBy !== mySide();
      confirmThen(fmt(accept ? "askAccept" : "askOffer"), function () { act("/api/draw", { basis: st.basis, answer: accept ? "accept" : "offer" }); }, accept);
    });
    $("giveTime").addEventListener("click", function () {
      var opp = st.players[1 - SIDES.indexOf(mySide())], left = (st.time && st.time.giftsLeft) || 0;
      // The gifts as the page shows them now: a gift is given once for
      // them, however many presses (a double click, another tab) ask.
      var given = (st.time && st.time.gifts && st.time.gifts[SIDES.indexOf(mySide())]) || 0;
      confirmThen(fmt("askGiveTime", opp, L.gift, String(left)), function () {
        act("/api/givetime", { given: given }).then(function (j) { if (j) { $("refusal").textContent = ""; $("done").textContent = fmt("gaveTime", opp, L.gift, String(left - 1)); } });
      });
    });
    $("decline").addEventListener("click", function () { confirmThen(fmt("askDecline"), function () { act("/api/draw", { basis: st.basis, answer: "decline" }); }); });
    $("withdrawDraw").addEventListener("click", function () { confirmThen(fmt("askWithdrawDraw"), function () { act("/api/draw", { basis: st.basis, answer: "decline" }); }); });
    function answerPause(answer, question) {
      var o = st.time && st.time.offer;
      if (!o) { return; }
      confirmThen(fmt(question, L.days[o.days] || String(o.days)), function () { act("/api/pause", { answer: answer, days: o.days }); });
    }
    $("pause").addEventListener("click", function () { answerPause("accept", "askPause"); });
    $("declinePause").addEventListener("click", function () { answerPause("decline", "askDeclinePause"); });
    $("withdrawPause").addEventListener("click", function () { answerPause("decline", "askWithdrawPause"); });
    $("proposePause").addEventListener("click", function () {
      var d = +$("pauseDays").value || 3;
      confirmThen(fmt("askProposePause", L.days[d]), function () { act("/api/pause", { answer: "propose", days: d }); });
    });
    $("download").addEventListener("click", download);
    $("numbering").addEventListener("click", function () {
      classic = !classic;
      try { localStorage.setItem("strategobot-numbering", classic ? "classic" : "modern"); } catch (e) { /* private mode */ }
      loadTexts().then(draw).catch(refuse);
    });
    $("history").addEventListener("click", function (e) { var b = e.target.closest("button"); if (b) { goto(+b.dataset.ply); } });
    $("first").addEventListener("click", function () { goto(0); });
    $("prev").addEventListener("click", prev);
    $("next").addEventListener("click", next);
    document.addEventListener("keydown", onReplayKey);
    $("last").addEventListener("click", function () { goto(-1); });
    setInterval(tick, 500);
    start(0);
  });
})();

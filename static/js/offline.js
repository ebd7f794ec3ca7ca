// Offline-first round entry. Without this script (or without localStorage) every form works as
// before; with it:
//  - Drafts: what is typed in the round form is kept on the phone (localStorage) per game and
//    round as it is typed, so Back, a reload, a closed tab or a crash never lose it; it goes
//    when the round is saved.
//  - The queue: a round saved without signal is kept with its one-time form token and sent by
//    itself when the signal returns. The server stores a token once, so sending it again (two
//    tabs, a retry after a timeout) can never count it twice; a queued round never gets a new
//    token.
//  - #phone-status (in base.html) shows what waits, what was sent and what was refused.
//  - It registers the service worker (static/sw.js, served at /sw.js) and asks it to keep the
//    pages of the games this phone keeps score for.
(function () {
  "use strict";
  var script = document.currentScript;
  var QUEUE = "scorekeeper:queue";
  var DRAFT = "scorekeeper:draft:";
  var SAVING = "scorekeeper:saving";
  var SEND_TIMEOUT_MS = 20000;
  var GAME_ID = /^\/g\/([A-Za-z0-9_-]+)/;
  var ROUND_ACTION = /^\/g\/([A-Za-z0-9_-]+)\/round$/;
  // Hidden fields that belong to the page, not to what was typed: never put back from a draft.
  var PAGE_FIELDS = ["csrf_token", "form_token", "round_number", "game_version", "confirm", "live"];

  var match = GAME_ID.exec(location.pathname);
  var pageGame = match ? match[1] : null;
  var statusBox = document.getElementById("phone-status");
  var notes = [];       // one-off messages for this page: {kind, text}
  var sentRounds = [];  // rounds of this page's game sent while it is open

  // ---------------------------------------------------------------------------------------
  // Storage

  function read(key, fallback) {
    try {
      var text = window.localStorage.getItem(key);
      return text ? JSON.parse(text) : fallback;
    } catch (error) { return fallback; }
  }
  function write(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); return true; } catch (error) { return false; }
  }
  function forget(key) {
    try { window.localStorage.removeItem(key); } catch (error) { /* nothing kept anyway */ }
  }
  function queue() { return read(QUEUE, []); }
  function saveQueue(items) { write(QUEUE, items); }
  function changeEntry(token, change) {
    saveQueue(queue().map(function (entry) {
      if (entry.token === token) { change(entry); }
      return entry;
    }).filter(function (entry) { return !entry.done; }));
  }
  function draftKey(game, round) { return DRAFT + game + ":" + round; }
  function drafts() {
    var found = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(DRAFT) === 0) { found.push({ key: key, draft: read(key, null) }); }
      }
    } catch (error) { /* no storage: no drafts */ }
    return found.filter(function (item) { return item.draft; });
  }
  // Drafts of rounds the server already has are done with (saved here or on another phone).
  function forgetDraftsBefore(game, round) {
    drafts().forEach(function (item) {
      if (item.draft.game === game && item.draft.round < round) { forget(item.key); }
    });
  }

  // A one-time token made on the phone (the server accepts 16-64 URL-safe characters).
  function newToken() {
    var bytes = new Uint8Array(24);
    window.crypto.getRandomValues(bytes);
    return window.btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function waitingFor(game) {
    return queue().filter(function (entry) { return entry.game === game; });
  }
  // The round a new form is for: the first round number not already kept on this phone to
  // be sent (not counting a round another phone saved first, nor one to fix and save again,
  // which opens as the round it is).
  function nextFreeRound(game, round) {
    var taken = waitingFor(game).filter(function (entry) {
      return entry.state !== "refused" && entry.state !== "invalid";
    })
      .map(function (entry) { return entry.round; });
    while (taken.indexOf(round) >= 0) { round += 1; }
    return round;
  }

  // ---------------------------------------------------------------------------------------
  // The round form: drafts, and Save without signal

  var form = document.getElementById("round-form");
  var formPath = form ? new URL(form.getAttribute("action") || location.href, location.href).pathname : "";
  var newRound = form && ROUND_ACTION.test(formPath) && pageGame ? form : null;
  var round = null;

  function input(name) { return form.querySelector('input[name="' + name + '"]'); }

  function typedFields() {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "action") { fields.push([name, value]); }
    });
    return fields;
  }

  function summary() {
    var parts = [];
    form.querySelectorAll('input[name$="-hand"]').forEach(function (points) {
      var seat = (/^seat_(\d+)-/.exec(points.name) || [])[1];
      var box = points.closest("fieldset");
      var legend = document.getElementById("seat-" + seat + "-name") || (box ? box.querySelector("legend") : null);
      var tiles = form.querySelector('[name="seat_' + seat + '-tiles"]');
      var out = form.querySelector('input[name="went_out"][value="' + seat + '"]:checked');
      var value = points.value.trim() || (tiles && tiles.value.trim() ? t("tiles %(tiles)s", { tiles: tiles.value.trim() }) : "–");
      var name = legend ? legend.textContent.trim() : t("Seat %(n)s", { n: seat });
      parts.push(out ? t("%(name)s %(value)s (went out)", { name: name, value: value }) : name + " " + value);
    });
    if (form.querySelector('input[name="went_out"][value="blocked"]:checked')) { parts.push(t("blocked round")); }
    return parts.join(" · ");
  }

  function saveDraft() {
    write(draftKey(pageGame, round), {
      game: pageGame, round: round, token: input("form_token").value, action: formPath,
      fields: typedFields(), summary: summary(), savedAt: Date.now()
    });
  }

  function restore(draft) {
    var values = {};
    draft.fields.forEach(function (pair) {
      if (PAGE_FIELDS.indexOf(pair[0]) < 0) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); }
    });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || PAGE_FIELDS.indexOf(el.name) >= 0 || el.type === "file" || el.type === "submit" || el.type === "button") { return; }
      var kept = values[el.name] || [];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = kept.indexOf(el.value) >= 0;
      } else if (el.type !== "hidden" || kept.length) {
        el.value = kept.length ? kept[0] : "";
      }
      if (el.tagName === "TEXTAREA" && el.value) {
        var details = el.closest("details");
        if (details) { details.open = true; }
      }
    });
  }

  // A cached round form may be for a round already waiting on this phone: it becomes the
  // form for the next one (number, heading, button), and the engine shown, which belongs to
  // the old round, is hidden. The number follows a word ("Round 4", "Save round 4", "Ronda 4",
  // "Manche 4"), whatever the page's language.
  function relabel(from, to) {
    input("round_number").value = String(to);
    var pattern = new RegExp("(\\p{L} )" + from + "(?!\\d)", "u");
    var rename = function (el) {
      if (!el) { return; }
      // Only the words change: the heading's engine drawing and other parts stay in place.
      var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        walker.currentNode.nodeValue = walker.currentNode.nodeValue.replace(pattern, "$1" + to);
      }
    };
    rename(document.querySelector("main h1"));
    form.querySelectorAll("button[type=submit]:not([name])").forEach(rename);
    document.title = document.title.replace(pattern, "$1" + to);
    // The page carries the next round's engine too (data-engine-round): that one is shown.
    document.querySelectorAll("main .round-engine, main p.lead .domino").forEach(function (engine) {
      var own = engine.getAttribute("data-engine-round") === String(to);
      (engine.closest("p") || engine).hidden = !own;
    });
  }

  function typedAnything(draft) {
    return (draft.fields || []).some(function (pair) {
      return PAGE_FIELDS.indexOf(pair[0]) < 0 && String(pair[1]).trim() !== "";
    });
  }

  function setUpRoundForm() {
    var numberInput = input("round_number");
    var tokenInput = input("form_token");
    if (!numberInput || !tokenInput) { newRound = null; return; }
    var pageRound = parseInt(numberInput.value, 10);
    forgetDraftsBefore(pageGame, pageRound);
    round = nextFreeRound(pageGame, pageRound);
    if (round !== pageRound) { relabel(pageRound, round); }
    var draft = read(draftKey(pageGame, round), null);
    if (draft && !typedAnything(draft)) { draft = null; }
    if (draft && draft.token === tokenInput.value) {
      // The server's answer to this very draft (a refused save, a photo read): its values are
      // the newest, so they become the draft.
      saveDraft();
    } else if (draft && draft.token) {
      restore(draft);
      tokenInput.value = draft.token;
      notes.push({ kind: "info", text: t("What you typed on this phone is back. Check it, then save.") });
      // Let the live check look at the restored values.
      window.setTimeout(function () { form.dispatchEvent(new Event("change", { bubbles: true })); }, 0);
    } else {
      // A page from the phone's cache may carry a token already used: always start with a
      // fresh one, made here. It stays with the typed values until the round is saved.
      tokenInput.value = newToken();
    }
    form.addEventListener("input", saveDraft);
    form.addEventListener("change", saveDraft);
    // "Leave without saving" throws the typed values away, unless the player answered "no"
    // to round.js's question (it stops the click before it reaches the document).
    document.addEventListener("click", function (event) {
      var leave = event.target.closest && event.target.closest("a[data-leave]");
      if (leave && !event.defaultPrevented) { forget(draftKey(pageGame, round)); }
    });
  }

  // Back after a save brings the round form back from the back/forward cache as it was left:
  // the saved round's values, "Went out" ticked. A draft belongs to its round and a saved
  // round never fills the next: the page is loaded again (from the server, or the worker's
  // copy without signal), and the draft of its round, if any, brings back what was typed.
  // Returns true when the page is being loaded again.
  function roundFormBack() {
    if (navigator.onLine !== false || (navigator.serviceWorker && navigator.serviceWorker.controller)) {
      // Nothing typed is lost (the draft has it): no "leave this page?" question from round.js.
      window.addEventListener("beforeunload", function (event) { event.stopImmediatePropagation(); }, true);
      location.reload();
      return true;
    }
    // No signal and no worker: nothing to load, so the form is cleared in place.
    if (read(draftKey(pageGame, round), null)) { return false; }  // its round is still to save
    form.reset();
    form.hidden = false;
    var next = nextFreeRound(pageGame, round);
    if (next !== round) { relabel(round, next); round = next; }
    input("form_token").value = newToken();
    return false;
  }

  function photoNeedsSignal(button) {
    var old = button.parentElement.querySelector("[data-needs-signal]");
    if (old) { old.remove(); }
    var note = document.createElement("p");
    note.className = "field-error";
    note.setAttribute("role", "alert");
    note.setAttribute("data-needs-signal", "");
    note.textContent = t("Reading a photo needs signal. What you typed is kept on this phone: type the tiles, or try the photo again when you have signal.");
    button.insertAdjacentElement("afterend", note);
  }

  // Runs before the page's other submit handlers (capture on window). A round kept on the phone
  // lets them run (round.js then knows it is saving and does not ask before leaving); a photo
  // or a correction that cannot go stops them, so the buttons stay usable.
  window.addEventListener("submit", function (event) {
    if (!form || event.target !== form) { return; }
    var button = event.submitter;
    var photo = button && button.hasAttribute("data-photo-step");  // sent to its own address
    if (newRound) {
      saveDraft();
      // The round being saved (takeFailedSave: a save the server answers with an error).
      write(SAVING, photo ? null : input("form_token").value);
    }
    // Rounds still to be sent go first: this one waits in the queue behind them.
    var earlier = newRound && waitingFor(pageGame).some(function (entry) {
      return entry.round < round && entry.state === "waiting";
    });
    if (navigator.onLine !== false && !(earlier && !photo)) { return; }  // a normal post; sw.js watches it
    var draft = newRound ? read(draftKey(pageGame, round), null) : null;
    if (newRound && !photo && !draft) { return; }  // nothing can be kept here: post as without this script
    event.preventDefault();
    if (photo || !newRound) {
      // Nothing is sent: the page's own submit handling (buttons disabled, "saving") stays out.
      event.stopImmediatePropagation();
    }
    if (photo) { photoNeedsSignal(button); return; }
    if (!newRound) {
      notes.push({ kind: "error", text: t("No signal: the correction was not sent. What you typed stays here: save again when you have signal.") });
      render();
      window.scrollTo(0, 0);
      return;
    }
    keep(draft);
    forget(draftKey(pageGame, round));
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      // The table view opens from the phone's copy and shows the round waiting.
      location.assign("/g/" + pageGame);
    } else {
      form.hidden = true;
      render();
      window.scrollTo(0, 0);
      flush();
    }
  }, true);

  // Put a draft in the queue (the same token twice stays one entry: the newest values win).
  function keep(draft) {
    var items = queue().filter(function (entry) { return entry.token !== draft.token; });
    items.push({
      token: draft.token, game: draft.game, round: draft.round, action: draft.action,
      fields: draft.fields, summary: draft.summary, state: "waiting", queuedAt: Date.now()
    });
    saveQueue(items);
  }

  // sw.js sends the phone here (?unsent=<token>) when a save got no answer.
  function takeUnsent() {
    var params = new URLSearchParams(location.search);
    var token = params.get("unsent");
    if (token === null) { return; }
    var found = drafts().filter(function (item) { return item.draft.token === token; })[0];
    var queued = queue().some(function (entry) { return entry.token === token; });
    if (found) {
      keep(found.draft);
      forget(found.key);
    } else if (!queued) {
      notes.push({ kind: "error", text: t("Your last save did not reach the server (no signal). Open the round again and save it.") });
    }
    params.delete("unsent");
    var rest = params.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  // A round save answered with a server error on a phone the service worker does not control
  // (plain HTTP on a club's network): the error page takes the round typed (its draft, saved as
  // Save was tapped) into the queue, as without signal; it is sent when the server answers.
  function takeFailedSave() {
    if (!pageGame || !ROUND_ACTION.test(location.pathname) || !document.querySelector("[data-failed-post]")) { return; }
    var token = read(SAVING, null);
    forget(SAVING);
    var saved = drafts().filter(function (item) {
      return token && item.draft.game === pageGame && item.draft.token === token;
    })[0];
    if (!saved) { return; }
    keep(saved.draft);
    forget(saved.key);
  }

  // ---------------------------------------------------------------------------------------
  // Sending the queue

  function body(entry) {
    var data = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      if (pair[0] !== "form_token" && pair[0] !== "round_number") { data.append(pair[0], pair[1]); }
    });
    data.append("form_token", entry.token);
    data.append("round_number", String(entry.round));
    return data;
  }

  function post(entry) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? window.setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS) : null;
    return fetch(entry.action, {
      method: "POST", body: body(entry), credentials: "same-origin", redirect: "follow",
      signal: controller ? controller.signal : undefined
    }).finally(function () { window.clearTimeout(timer); });
  }

  function page(response) {
    return response.text().then(function (text) { return new DOMParser().parseFromString(text, "text/html"); });
  }
  function plain(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }

  // "Ann 7 · Bob 0 (went out) · …" from the first table of the server's "already saved" page
  // (its "went out" in the page's language).
  function savedThere(box) {
    var wentOut = " " + t("went out");
    var rows = box ? box.querySelectorAll("table tbody tr") : [];
    if (!rows.length) { return ""; }
    var first = rows[0].closest("table");
    return Array.prototype.filter.call(rows, function (row) { return row.closest("table") === first; })
      .map(function (row) {
        return plain(row.querySelector("th")) + " " + plain(row.querySelector("td")).replace(wentOut, " (" + wentOut.slice(1) + ")");
      }).join(" · ");
  }

  // One entry, one answer: "arrived", "offline" (try later), "later" (server trouble) or a
  // state to show ("refused", "invalid", "denied", "failed").
  function send(entry, freshToken) {
    return post(entry).then(function (response) {
      var path = new URL(response.url).pathname;
      if (response.redirected) {
        // A save (or an earlier save of the same token) goes to the table view or the summary.
        var base = "/g/" + entry.game;
        if (path === base || path === base + "/summary") {
          // The page it went to carries the server's words on it ("Saved as typed; worth a
          // look: ..."): keep those, the player would have seen them after a normal save.
          return page(response).then(function (doc) {
            var said = Array.prototype.map.call(doc.querySelectorAll(".flash.info, .flash.warning"), plain);
            return { state: "arrived", said: said };
          });
        }
        return { state: "failed", reason: t("the server did not take it (the game may have ended).") };
      }
      if (response.status === 409) {
        return page(response).then(function (doc) {
          return { state: "refused", saved: savedThere(doc.querySelector('[data-conflict="round"]')) };
        });
      }
      if (response.status === 422 || response.status === 200) {
        return page(response).then(function (doc) {
          var problems = Array.prototype.map.call(doc.querySelectorAll("#round-form .field-error"), plain)
            .filter(function (text, i, all) { return text && all.indexOf(text) === i; });
          return { state: "invalid", problems: problems.slice(0, 3) };
        });
      }
      if (response.status === 400 && !freshToken) {
        // The security token of a page kept for long may be refused: fetch a fresh one and
        // send once more, with the same one-time token.
        return fetch(entry.action, { credentials: "same-origin" }).then(function (fresh) {
          if (!fresh.ok || fresh.redirected) { return { state: "denied" }; }
          return page(fresh).then(function (doc) {
            var csrf = doc.querySelector('input[name="csrf_token"]');
            if (!csrf) { return { state: "failed", reason: t("the server did not accept it.") }; }
            entry.fields = entry.fields.filter(function (pair) { return pair[0] !== "csrf_token"; })
              .concat([["csrf_token", csrf.value]]);
            changeEntry(entry.token, function (kept) { kept.fields = entry.fields; });
            return send(entry, true);
          });
        });
      }
      if (response.status === 400) { return { state: "failed", reason: t("the server did not accept its security check.") }; }
      if (response.status === 403) {
        // A league table says why in the league's words (a new passphrase) and where to go.
        return page(response).then(function (doc) {
          var fix = doc.querySelector("a[data-fix]");
          return {
            state: "denied", reason: plain(doc.querySelector("[data-refused]")),
            fix: fix ? { text: plain(fix), href: fix.getAttribute("href") } : null
          };
        }, function () { return { state: "denied" }; });
      }
      if (response.status === 404) { return { state: "failed", reason: t("this game is no longer on the server.") }; }
      return { state: "later" };  // 429, 5xx: the server is busy or broken; try again later
    }, function () { return { state: "offline" }; });
  }

  // An entry waits behind an earlier round of its game that needs a look.
  function heldBy(entry, items) {
    return items.filter(function (other) {
      return other.game === entry.game && other.round < entry.round && other.state !== "waiting";
    })[0] || null;
  }

  var flushing = false;
  var answered = [];  // games with a round answered in this sending
  var retryTimer = null;
  var retryDelay = 5000;

  function sendAll() {
    var next = queue().filter(function (entry, i, items) {
      return entry.state === "waiting" && !heldBy(entry, items);
    }).sort(function (a, b) { return a.round - b.round; })[0];
    if (!next) { return Promise.resolve(true); }
    return send(next, false).then(function (outcome) {
      if (outcome.state === "offline" || outcome.state === "later") {
        // Said on its card: no signal, or the server answering with an error (its database
        // down): the round waits either way.
        var trouble = outcome.state === "later";
        if (!!next.serverTrouble !== trouble) {
          changeEntry(next.token, function (entry) { entry.serverTrouble = trouble; });
          render();
        }
        return false;
      }
      changeEntry(next.token, function (entry) {
        if (outcome.state === "arrived") { entry.done = true; return; }
        entry.state = outcome.state;
        entry.saved = outcome.saved || "";
        entry.problems = outcome.problems || [];
        entry.reason = outcome.reason || "";
        entry.fix = outcome.fix || null;
      });
      if (outcome.state === "arrived") {
        forget(draftKey(next.game, next.round));
        if (next.game === pageGame) { sentRounds.push({ round: next.round, said: outcome.said || [] }); }
      }
      answered.push(next.game);
      render();
      return sendAll();
    });
  }

  function flush() {
    if (flushing || !queue().some(function (entry) { return entry.state === "waiting"; })) { return; }
    flushing = true;
    // While rounds are being sent, live.js leaves the page alone: its fetches would take the
    // server's one-off messages meant for the answers read here.
    document.documentElement.setAttribute("data-sending", "");
    window.clearTimeout(retryTimer);
    // One tab at a time sends (Web Locks where the browser has them); the server's token
    // check keeps the rest safe anyway.
    var run = function (lock) { return lock === null ? true : sendAll(); };
    var done = navigator.locks && navigator.locks.request
      ? navigator.locks.request("scorekeeper-queue", { ifAvailable: true }, run)
      : sendAll();
    var over = function () {
      flushing = false;
      document.documentElement.removeAttribute("data-sending");
      // The game may have changed on the server: the table view looks now.
      answered.splice(0).forEach(function (game) {
        document.dispatchEvent(new CustomEvent("scorekeeper:sent", { detail: { game: game } }));
      });
    };
    done.then(function (finished) {
      over();
      render();
      if (finished) { retryDelay = 5000; return; }
      retryTimer = window.setTimeout(flush, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 60000);
    }, over);
  }

  // ---------------------------------------------------------------------------------------
  // What the phone shows

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }
  function link(text, href, secondary) {
    var a = el("a", "button" + (secondary ? " secondary" : ""), text);
    a.href = href;
    return a;
  }
  function button(text, onClick, secondary) {
    var b = el("button", secondary ? "secondary" : "", text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function retry(entry) {
    changeEntry(entry.token, function (kept) { kept.state = "waiting"; });
    retryDelay = 5000;
    render();
    flush();
  }
  function dismiss(entry) {
    changeEntry(entry.token, function (kept) { kept.done = true; });
    render();
    flush();  // rounds held behind it may go now
  }
  function reopen(entry) {
    write(draftKey(entry.game, entry.round), {
      game: entry.game, round: entry.round, token: entry.token, action: entry.action,
      fields: entry.fields, summary: entry.summary, savedAt: Date.now()
    });
    changeEntry(entry.token, function (kept) { kept.done = true; });
    location.assign("/g/" + entry.game + "/round");
  }
  function throwAway(entry) {
    if (window.confirm(t("Throw away round %(n)s as typed on this phone? It cannot be brought back.", { n: entry.round }))) { dismiss(entry); }
  }

  function card(entry, items) {
    var base = "/g/" + entry.game;
    var held = entry.state === "waiting" ? heldBy(entry, items) : null;
    if (newRound && entry.state === "waiting") {
      // On the round form one short line each, so Save stays on the screen.
      var line = el("p", "notice warning queued offline-note", t("Round %(n)s: saved on this phone, not sent yet.", { n: entry.round }));
      line.setAttribute("data-queued-round", String(entry.round));
      line.setAttribute("data-state", held ? "held" : "waiting");
      return line;
    }
    var box = el("div", "notice queued " + (entry.state === "waiting" ? "warning" : "error"));
    box.setAttribute("data-queued-round", String(entry.round));
    box.setAttribute("data-state", held ? "held" : entry.state);
    var actions = el("div", "actions");
    var text;
    var n = { n: entry.round };
    if (held) {
      text = t("Round %(n)s: saved on this phone, not sent yet: it waits until round %(held)s is sorted out.", { n: entry.round, held: held.round });
    } else if (entry.state === "waiting" && entry.serverTrouble) {
      text = t("Round %(n)s: saved on this phone, not sent yet: the server is having trouble. It will be sent when the server answers again.", n);
      if (navigator.onLine !== false) { actions.appendChild(button(t("Send it now"), function () { retry(entry); }, true)); }
    } else if (entry.state === "waiting") {
      text = t("Round %(n)s: saved on this phone, not sent yet: it will be sent when you have signal.", n);
      if (navigator.onLine !== false) { actions.appendChild(button(t("Send it now"), function () { retry(entry); }, true)); }
    } else if (entry.state === "refused") {
      text = t("Round %(n)s was already saved from another phone. Nothing from this phone was added.", n);
      actions.appendChild(link(t("See what was saved"), base + "/scoreboard"));
      actions.appendChild(link(t("Correct round %(n)s", n), base + "/rounds/" + entry.round, true));
      actions.appendChild(button(t("I have seen it"), function () { dismiss(entry); }, true));
    } else if (entry.state === "invalid") {
      text = t("Round %(n)s was not saved: the server found a problem in it.", n);
      actions.appendChild(button(t("Open round %(n)s to fix it", n), function () { reopen(entry); }));
      actions.appendChild(button(t("Throw it away"), function () { throwAway(entry); }, true));
    } else if (entry.state === "denied") {
      // The round stays in the queue, as typed, until the player has the right again.
      text = entry.reason
        ? t("Round %(n)s is not sent. %(reason)s", { n: entry.round, reason: entry.reason })
        : t("Round %(n)s is not sent: this phone may no longer keep score for this game. Type the edit code, then try again.", n);
      if (entry.fix) {
        actions.appendChild(link(entry.fix.text, entry.fix.href));
      } else {
        actions.appendChild(link(t("Type the edit code"), base + "/unlock?next=" + encodeURIComponent(base)));
      }
      actions.appendChild(button(t("Try again"), function () { retry(entry); }, true));
    } else {
      // The reason on its own line: Babel's extractor does not see a t() inside another's.
      var reason = entry.reason || t("the server did not take it.");
      text = t("Round %(n)s could not be sent: %(reason)s", { n: entry.round, reason: reason });
      actions.appendChild(button(t("Try again"), function () { retry(entry); }));
      actions.appendChild(button(t("Throw it away"), function () { throwAway(entry); }, true));
    }
    box.appendChild(el("p", "", text));
    if (entry.state === "refused" && entry.saved) { box.appendChild(el("p", "queued-detail", t("Saved there: %(saved)s", { saved: entry.saved }))); }
    (entry.problems || []).forEach(function (problem) { box.appendChild(el("p", "queued-detail", problem)); });
    if (entry.summary) {
      box.appendChild(el("p", "queued-detail", entry.state === "waiting" ? entry.summary : t("Typed here: %(summary)s", { summary: entry.summary })));
    }
    if (!pageGame) { actions.appendChild(link(t("Open the game"), base, true)); }
    if (actions.children.length) { box.appendChild(actions); }
    return box;
  }

  var shown = "";
  function render() {
    if (!statusBox) { return; }
    var items = queue();
    var mine = items.filter(function (entry) { return !pageGame || entry.game === pageGame; });
    var parts = [];
    var waiting = mine.some(function (entry) { return entry.state === "waiting"; });
    // Without signal, say so once; a waiting round already says it will go with the signal.
    if (navigator.onLine === false && !waiting) {
      parts.push(el("p", "notice info offline-note", newRound
        ? t("No signal: Save keeps the round on this phone.")
        : t("No signal. Rounds you save are kept on this phone and sent when the signal is back.")));
    }
    sentRounds.forEach(function (sent) {
      parts.push(el("p", "notice success", t("Round %(n)s was sent and saved.", { n: sent.round })));
      sent.said.forEach(function (text) { parts.push(el("p", "notice info", t("Round %(n)s: %(said)s", { n: sent.round, said: text }))); });
    });
    notes.forEach(function (note) { parts.push(el("p", "notice " + note.kind, note.text)); });
    mine.sort(function (a, b) { return a.game === b.game ? a.round - b.round : 0; })
      .forEach(function (entry) { parts.push(card(entry, items)); });
    var behind = tableBehind();
    if (behind && !nextViewKnown()) {
      parts.push(el("p", "hint", t("Until round %(n)s reaches the server, the table view below cannot show the round after it.", { n: behind })));
    }
    var signature = JSON.stringify([navigator.onLine, sentRounds, notes, mine]);
    if (signature === shown) { return; }
    shown = signature;
    statusBox.replaceChildren.apply(statusBox, parts);
    relabelTable();
  }

  // ---------------------------------------------------------------------------------------
  // The table view

  var table = document.querySelector("[data-table-view]");
  // The round the table view shows when that round is already waiting on this phone.
  function tableBehind() {
    if (!table || !pageGame || table.hasAttribute("data-finished")) { return null; }
    var shownRound = parseInt(table.getAttribute("data-round"), 10);
    return nextFreeRound(pageGame, shownRound) !== shownRound ? shownRound : null;
  }
  // "Enter round 4 scores" becomes "Enter round 5 scores" (the number after a word, whatever
  // the page's language) while round 4 waits on this phone,
  // and the round shown above it is round 5 (the page carries it, hidden: data-round-view),
  // never round 4's engine and starter beside round 5's button.
  function relabelTable() {
    if (!table || !pageGame) { return; }
    var enter = table.querySelector('a[href$="/g/' + pageGame + '/round"]');
    var next = nextFreeRound(pageGame, parseInt(table.getAttribute("data-round"), 10));
    if (enter) { enter.textContent = enter.textContent.replace(/(\p{L} )\d+/u, "$1" + next); }
    var views = table.querySelectorAll("[data-round-view]");
    Array.prototype.forEach.call(views, function (view) {
      // Two rounds or more behind, no view is known: none is shown rather than a wrong one.
      view.hidden = view.getAttribute("data-round-view") !== String(next);
    });
    var coming = table.querySelector(".next-round");
    if (coming) { coming.hidden = tableBehind() !== null; }
  }

  function nextViewKnown() {
    var next = nextFreeRound(pageGame, parseInt(table.getAttribute("data-round"), 10));
    return !!table.querySelector('[data-round-view="' + next + '"]');
  }

  function setUpTable() {
    if (!table || !pageGame) { return; }
    var shownRound = parseInt(table.getAttribute("data-round"), 10);
    if (table.hasAttribute("data-finished")) { shownRound = Infinity; }
    forgetDraftsBefore(pageGame, shownRound);
  }

  // Ask the service worker to keep this game's pages when this phone keeps score for it
  // (again when the page changed in place: the kept copies are refreshed).
  function keepGame(refresh) {
    var keepsScore = (table && table.hasAttribute("data-keep-score")) || newRound;
    if (!keepsScore || !pageGame || !window.caches || !navigator.serviceWorker) { return; }
    window.caches.open("pages").then(function (cache) {
      return cache.match(location.origin + "/g/" + pageGame);
    }).then(function (kept) {
      if (kept && refresh !== true) { return; }
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) { registration.active.postMessage({ type: "keep", game: pageGame }); }
      });
    }).catch(function () { /* no cache storage: the pages need signal */ });
  }

  // ---------------------------------------------------------------------------------------
  // Forgetting: the games this phone was just signed out of (a league forgotten, a game given
  // up) are listed in data-purge on this script's tag, once. What the phone kept of them goes:
  // drafts, rounds waiting to be sent, and the pages kept for use without signal. The page
  // clears those itself (Cache Storage is open to it) and tells the service worker too, so it
  // works whether or not the worker controls this page.

  var PAGES = "pages";  // static/sw.js PAGES_CACHE
  var GAME_PAGE_OF = /^\/g\/([A-Za-z0-9_-]+)/;

  function forgottenGames() {
    var listed = (script && script.getAttribute("data-purge")) || "";
    return listed.split(/\s+/).filter(function (id) { return /^[A-Za-z0-9_-]+$/.test(id); });
  }

  function forgetStoredGames(games) {
    var keys = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) { keys.push(window.localStorage.key(i)); }
    } catch (error) { return; }
    keys.forEach(function (key) {
      if (!key || key.indexOf(DRAFT) !== 0) { return; }
      var draft = read(key, null);
      var named = key.slice(DRAFT.length).split(":")[0];
      if (games.indexOf(named) >= 0 || (draft && games.indexOf(draft.game) >= 0)) { forget(key); }
    });
    var items = queue();
    var left = items.filter(function (entry) { return games.indexOf(entry.game) < 0; });
    if (left.length !== items.length) { saveQueue(left); }
  }

  function forgetKeptPages(games) {
    if (!window.caches) { return Promise.resolve(); }
    return window.caches.has(PAGES).then(function (exists) {
      if (!exists) { return undefined; }
      return window.caches.open(PAGES).then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(requests.map(function (request) {
            var path = new URL(request.url).pathname;
            var found = GAME_PAGE_OF.exec(path);
            if (found) { return games.indexOf(found[1]) >= 0 ? cache.delete(request) : undefined; }
            if (path !== "/") { return undefined; }
            // The kept start page lists the phone's games: a copy naming one of them goes (the
            // worker keeps a fresh one with signal).
            return cache.match(request).then(function (kept) {
              return kept ? kept.text() : "";
            }).then(function (html) {
              var named = games.some(function (id) {
                return new RegExp("/g/" + id + "(?![A-Za-z0-9_-])").test(html);
              });
              return named ? cache.delete(request) : undefined;
            });
          }));
        });
      });
    });
  }

  function forgetSignedOut() {
    var games = forgottenGames();
    if (!games.length) { return; }
    forgetStoredGames(games);
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget", games: games });
    }
    // Marked on the page when done (browser tests wait for it).
    var done = function () { document.documentElement.setAttribute("data-forgotten", String(games.length)); };
    forgetKeptPages(games).then(done, done);
  }

  // Signing out while rounds typed on this phone have not reached the server: ask first (on a
  // game's page its own rounds; on a league's page any), since they go with the sign-out.
  document.addEventListener("submit", function (event) {
    var target = event.target;
    var action = target && target.getAttribute ? target.getAttribute("action") || "" : "";
    if (!/\/forget$/.test(action) || event.defaultPrevented) { return; }
    var waiting = queue().filter(function (entry) { return !pageGame || entry.game === pageGame; });
    if (!waiting.length) { return; }
    var question = tn(
      "A round typed on this phone has not reached the server yet. If it belongs to what you sign out of, it is thrown away. Sign out anyway?",
      "%(num)s rounds typed on this phone have not reached the server yet. Those that belong to what you sign out of are thrown away. Sign out anyway?",
      waiting.length);
    if (!window.confirm(question)) { event.preventDefault(); }
  });

  // ---------------------------------------------------------------------------------------
  // Start

  if ("serviceWorker" in navigator && script && script.getAttribute("data-worker")) {
    navigator.serviceWorker.register(script.getAttribute("data-worker")).then(keepGame, function () {
      /* no worker (private mode, old browser): the app works with signal as before */
    });
  }
  forgetSignedOut();
  if (newRound) { setUpRoundForm(); }
  setUpTable();
  takeUnsent();
  takeFailedSave();
  render();
  flush();
  window.addEventListener("online", function () { retryDelay = 5000; render(); flush(); });
  window.addEventListener("offline", render);
  // live.js put a new table view in place (another phone saved a round).
  document.addEventListener("scorekeeper:updated", function () {
    table = document.querySelector("[data-table-view]");
    setUpTable();
    shown = "";
    render();
    keepGame(true);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { render(); flush(); }
  });
  // Another tab changed the queue.
  window.addEventListener("storage", function (event) { if (event.key === QUEUE) { render(); } });
  // Back/forward cache: the page comes back as it was left; show the queue as it is now.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) { return; }
    if (newRound && roundFormBack()) { return; }
    shown = ""; render(); flush();
  });
})();

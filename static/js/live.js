// The table view follows the game: when another phone saves a round (or this phone's queue
// sends one), the page updates in place. It asks /g/<id>/state.json every few seconds while
// the page is visible, never while it is hidden; the server answers 304 while nothing changed.
// The share view polls its board with htmx; that polling pauses while hidden too.
(function () {
  "use strict";
  var EVERY_MS = 4500;

  // Share view: htmx polls #watch-board every 4 s; skip the polls nobody can see.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.visibilityState === "hidden" && event.target && event.target.id === "watch-board") {
      event.preventDefault();
    }
  });

  var table = document.querySelector("[data-table-view]");
  var game = table && table.getAttribute("data-game");
  if (!game || !window.fetch || !window.DOMParser) { return; }
  var version = table.getAttribute("data-version");
  var timer = null;
  var busy = false;

  function schedule() {
    window.clearTimeout(timer);
    if (document.visibilityState === "visible") { timer = window.setTimeout(poll, EVERY_MS); }
  }

  function poll() {
    if (busy) { return; }
    // offline.js is sending kept rounds: look again when it is done ("scorekeeper:sent").
    if (document.documentElement.hasAttribute("data-sending")) { schedule(); return; }
    busy = true;
    // "no-cache": the browser asks with the ETag it has; an unchanged game costs a 304.
    fetch("/g/" + game + "/state.json", { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (state && String(state.version) !== String(version)) { return refresh(); }
        return undefined;
      })
      .catch(function () { /* no signal: ask again later */ })
      .then(function () { busy = false; schedule(); });
  }

  // Put the new table view in place of the old one, keeping what the phone shows on its own
  // (the status region) and which sections are open.
  function refresh() {
    return fetch(location.pathname, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { return; }
      return response.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var next = fresh.querySelector("[data-table-view]");
        var main = document.getElementById("content");
        var newMain = fresh.getElementById("content");
        if (!next || !main || !newMain) { return; }
        var open = Array.prototype.map.call(main.querySelectorAll("details"), function (d) { return d.open; });
        var status = document.getElementById("phone-status");
        Array.prototype.slice.call(main.children).forEach(function (child) {
          if (child !== status) { child.remove(); }
        });
        Array.prototype.slice.call(newMain.children).forEach(function (child) {
          if (child.id !== "phone-status") { main.appendChild(document.adoptNode(child)); }
        });
        main.querySelectorAll("details").forEach(function (d, i) { if (open[i]) { d.open = true; } });
        table = main.querySelector("[data-table-view]");
        version = table.getAttribute("data-version");
        document.title = fresh.title;
        document.dispatchEvent(new CustomEvent("scorekeeper:updated", { detail: { game: game } }));
      });
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { poll(); } else { window.clearTimeout(timer); }
  });
  // A round from this phone's queue arrived: look now rather than in a few seconds.
  document.addEventListener("scorekeeper:sent", function (event) {
    if (event.detail && event.detail.game === game) { window.clearTimeout(timer); poll(); }
  });
  poll();
})();

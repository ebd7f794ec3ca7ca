// The service worker: lets the phone open the games it keeps score for without signal.
// Served from /sw.js by scorekeeper/web/pwa.py, which puts self.SCOREKEEPER in front of this file:
// {version, shell, offline, offlinePages, static, catalogs, words}. The server stays the one truth: pages always come from
// the network when there is any, the cache is only the fallback. Unsent rounds are kept by
// static/js/offline.js in the page (localStorage), not here.
"use strict";

var SETTINGS = self.SCOREKEEPER;
// Static files are versioned by their content (the hash in SETTINGS.version): a deploy that
// changes one serves a new worker, which fills a new static cache and deletes the old one.
var STATIC_CACHE = "static-" + SETTINGS.version;
// Pages are not versioned: losing them on a deploy would lose the offline copies of the
// games in play. Each one is replaced whenever it is fetched with signal.
var PAGES_CACHE = "pages";
// Games whose pages are kept: the most recent ones this phone keeps score for.
var KEEP_GAMES = 12;
// A save that gets no answer in this time is kept on the phone (the form's one-time token
// makes the later resend safe even if this one did arrive).
var SAVE_TIMEOUT_MS = 15000;

var GAME_PAGE = /^\/g\/([A-Za-z0-9_-]+)(\/round|\/scoreboard)?$/;
var ROUND_POST = /^\/g\/([A-Za-z0-9_-]+)\/round$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE).then(function (cache) { return cache.addAll(SETTINGS.shell); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("static-") === 0 && name !== STATIC_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(scrubKeptPages).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST") {
    // Never cached. Only a round save is watched, so a save without signal is not lost.
    if (request.mode === "navigate" && ROUND_POST.test(url.pathname)) {
      event.respondWith(saveRound(event));
    }
    return;
  }
  if (request.method !== "GET") { return; }
  // Static files, and the scripts' catalogs (/i18n/<lang>.js), versioned like them.
  if (url.pathname.indexOf(SETTINGS.static) === 0 || url.pathname.indexOf(SETTINGS.catalogs) === 0) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, url));
  }
  // Anything else (state.json, the live board, QR codes, photos): network and HTTP caching.
});

// Static files: from the cache; fetched (and kept) when missing.
function cacheFirst(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
    });
  });
}

// A server error (5xx: the database down, the proxy's 503 while the app restarts) is no signal
// to the phone: what it kept serves, as without network.
function serverTrouble(response) {
  return response.status >= 500;
}

// Pages: from the network; the kept copy only when there is no network, or when the server
// answers with an error (a page not kept then shows the server's own answer).
function networkFirst(event, url) {
  var key = url.origin + url.pathname;  // the query string never picks a different copy
  return fetch(event.request).then(function (response) {
    if (serverTrouble(response)) {
      return keptPage(key).then(function (hit) { return hit || response; });
    }
    event.waitUntil(keepPage(key, url.pathname, response.clone()));
    event.waitUntil(followLanguage(response.headers.get("Content-Language")));
    return response;
  }).catch(function () {
    // The kept page; else "No signal" in the language last used, or as installed.
    return keptPage(key)
      .then(function (hit) { return hit || caches.match(self.location.origin + SETTINGS.offline, { cacheName: PAGES_CACHE }); })
      .then(function (hit) { return hit || caches.match(SETTINGS.offline); })
      .then(function (hit) { return hit || Response.error(); });
  });
}

// The kept copy of a page; else the start page as installed (the shell); else nothing.
function keptPage(key) {
  return caches.open(PAGES_CACHE).then(function (cache) { return cache.match(key); })
    .then(function (hit) { return hit || caches.match(key, { cacheName: STATIC_CACHE }); });
}

// ---------------------------------------------------------------------------------------------
// Languages. The worker has no page: its few sentences come with it, translated into every
// language (SETTINGS.words, from the catalogs), and each goes into a page in that page's own
// language. "No signal" is kept in every language (SETTINGS.offlinePages); the copy shown is
// the one in the language of the last page this phone opened with signal (Content-Language).

function t(message, language) {
  var words = (SETTINGS.words || {})[language] || {};
  return words[message] || message;
}

function languageOf(html) {
  var found = /<html[^>]*\slang="([A-Za-z-]+)"/.exec(html);
  return found ? found[1] : "en";
}

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

var language = null;  // the language of the last page opened with signal, once known
function followLanguage(code) {
  var page = code && (SETTINGS.offlinePages || {})[code];
  if (!page || code === language) { return Promise.resolve(); }
  language = code;
  return caches.match(page, { cacheName: STATIC_CACHE }).then(function (kept) {
    if (!kept) { return undefined; }
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.put(self.location.origin + SETTINGS.offline, kept);
    });
  }).catch(function () { /* the copy as installed stays */ });
}

// Keep the start page, and the pages of games already kept (a game is kept when one of its
// pages asks for it: see "keep" below). A redirect (to the edit-code form, to the summary) or
// an error page is never kept in place of the page.
function keepPage(key, path, response) {
  if (!response.ok || response.redirected || response.type !== "basic") { return Promise.resolve(); }
  var match = GAME_PAGE.exec(path);
  if (path !== "/" && !match) { return Promise.resolve(); }
  return caches.open(PAGES_CACHE).then(function (cache) {
    var table = match ? self.location.origin + "/g/" + match[1] : null;
    return (table ? cache.match(table) : Promise.resolve(true)).then(function (kept) {
      if (!kept) { return undefined; }
      var before = key === table ? kept.text() : Promise.resolve("");
      return Promise.all([response.text(), before]).then(function (pages) {
        var html = pages[0];
        // A page showing a one-off message ("Round 4 saved.") is fetched again without it.
        var done = html.indexOf('class="flash') >= 0
          ? fetchAndKeep(cache, key)
          : keepCopy(cache, key, html, response);
        // The game changed (a new round): refresh the kept round form with the table view, so
        // the copy used without signal is for the round the table view shows.
        if (key === table && versionOf(html) !== versionOf(pages[1])) {
          done = done.then(function () { return fetchAndKeep(cache, table + "/round"); });
        }
        return done;
      });
    });
  });
}

// The game's version written on its table view (data-version), or "" when it has none.
function versionOf(html) {
  var found = /data-version="(\d+)"/.exec(html);
  return found ? found[1] : "";
}

function fetchAndKeep(cache, address) {
  return fetch(address, { credentials: "same-origin", redirect: "follow" }).then(function (response) {
    if (response.ok && !response.redirected) {
      // Read the whole page first: a put that streams a body the network then cuts off
      // would lose the copy kept before.
      return response.text().then(function (html) { return keepCopy(cache, address, html, response); });
    }
    if (response.redirected) { return cache.delete(address); }  // no longer this phone's to change
    return undefined;
  }).catch(function () { /* no signal: keep what we have */ });
}

// A page asks to keep its game (this phone keeps score for it): its table view, round form
// and scoreboard. Only the most recent KEEP_GAMES games are kept.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !/^[A-Za-z0-9_-]+$/.test(data.game || "")) { return; }
  var base = self.location.origin + "/g/" + data.game;
  event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) {
    return Promise.all(["", "/round", "/scoreboard"].map(function (suffix) {
      return fetchAndKeep(cache, base + suffix);
    })).then(function () { return forgetOldGames(cache, data.game); });
  }));
});

function forgetOldGames(cache, newest) {
  return cache.keys().then(function (requests) {
    var games = [];
    requests.forEach(function (request) {
      var match = GAME_PAGE.exec(new URL(request.url).pathname);
      if (match && match[1] !== newest && games.indexOf(match[1]) < 0) { games.push(match[1]); }
    });
    // keys() lists in the order the entries were stored: the oldest games come first.
    var old = games.slice(0, Math.max(0, games.length - (KEEP_GAMES - 1)));
    return Promise.all(requests.filter(function (request) {
      var match = GAME_PAGE.exec(new URL(request.url).pathname);
      return match && old.indexOf(match[1]) >= 0;
    }).map(function (request) { return cache.delete(request); }));
  });
}

// A round save (a normal form post). With signal it goes through untouched. When the network
// fails, gives no answer in time or the server answers with an error (5xx: its database down),
// the browser would show an error page and the round would be gone from view; instead the
// phone goes to the table view with ?unsent=<token>,
// where offline.js puts the typed round (kept as a draft while typing) in the queue of rounds
// to send. A photo button needs the server: its step has its own address, which this worker
// leaves alone (a page made before that sends ``action`` here: never redirected either).
function saveRound(event) {
  var request = event.request;
  var copy = request.clone();
  var game = ROUND_POST.exec(new URL(request.url).pathname)[1];
  var sent = fetch(request);
  event.waitUntil(sent.catch(function () {}));
  var timer;
  var late = new Promise(function (resolve) {
    timer = setTimeout(function () { resolve(null); }, SAVE_TIMEOUT_MS);
  });
  return Promise.race([sent, late]).then(function (response) {
    clearTimeout(timer);
    if (response && !serverTrouble(response)) { return response; }
    throw new Error(response ? "server error " + response.status : "no answer in time");
  }).catch(function (error) {
    return copy.formData().then(function (form) {
      var action = String(form.get("action") || "");
      if (action && action !== "save") { throw error; }
      var token = String(form.get("form_token") || "");
      var target = "/g/" + game + "?unsent=" + encodeURIComponent(token);
      return Response.redirect(new URL(target, self.location.origin).href, 303);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// What a kept copy may hold, and forgetting

// The parts of a page a reader of the phone should not see without signal (the edit code, the
// members' link) sit between <!--secret--> and <!--/secret--> (templates/games/table.html).
// The kept copy is the page without them: whoever picks the phone up later cannot read them
// from it, and with signal the page comes from the server, which asks for the rights anew.
var SECRET = /<!--secret-->[\s\S]*?<!--\/secret-->/g;
// A secret outside the marks (a page kept by an older version of this worker): no copy.
var UNMARKED_SECRET = /class="huge code"|\/members\/[A-Za-z0-9_.-]{8,}/;

function withoutSecrets(html) {
  // Said in the page's own language.
  var gone = '<p class="hint" data-secret-removed>'
    + escapeHtml(t("Shown only with signal: it is not kept on this phone.", languageOf(html))) + "</p>";
  return html.replace(SECRET, function () { return gone; });
}

// Keep ``html`` as the copy of ``address``, without its secrets. A page that tells the phone
// to clear games it was signed out of (data-purge) is never kept: opened again without signal
// it would clear them a second time, drafts typed since included.
function keepCopy(cache, address, html, response) {
  var copy = withoutSecrets(html);
  if (UNMARKED_SECRET.test(copy) || html.indexOf("data-purge=") >= 0) { return cache.delete(address); }
  return cache.put(address, new Response(copy, { status: response.status, headers: response.headers }));
}

// A new worker looks over the pages kept before it: each is kept again without its secrets.
function scrubKeptPages() {
  return caches.has(PAGES_CACHE).then(function (exists) {
    if (!exists) { return undefined; }
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (response) {
            if (!response) { return undefined; }
            return response.text().then(function (html) {
              return html === withoutSecrets(html) && !UNMARKED_SECRET.test(html) && html.indexOf("data-purge=") < 0
                ? undefined
                : keepCopy(cache, request, html, response);
            });
          });
        }));
      });
    });
  }).catch(function () { /* a page that cannot be read is fetched again with signal */ });
}

// The phone was signed out of these games (a league forgotten, a game given up): their kept
// pages go (static/js/offline.js clears their drafts and unsent rounds, and these pages too
// when this worker does not control it).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "forget" || !Array.isArray(data.games)) { return; }
  var games = data.games.filter(function (id) { return /^[A-Za-z0-9_-]+$/.test(String(id)); });
  event.waitUntil(forgetGames(games));
});

function forgetGames(games) {
  if (!games.length) { return Promise.resolve(); }
  return caches.has(PAGES_CACHE).then(function (exists) {
    if (!exists) { return undefined; }
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(function (request) {
          var match = /^\/g\/([A-Za-z0-9_-]+)/.exec(new URL(request.url).pathname);
          return match && games.indexOf(match[1]) >= 0;
        }).map(function (request) { return cache.delete(request); }));
      }).then(function () { return forgetOnStartPage(cache, games); });
    });
  });
}

// The kept start page lists the phone's games: a copy that names one the phone was signed out
// of goes, and a fresh one (from the server, which no longer lists it) is kept when there is
// signal.
function forgetOnStartPage(cache, games) {
  var start = self.location.origin + "/";
  return cache.match(start).then(function (kept) {
    return kept ? kept.text() : "";
  }).then(function (html) {
    if (!namesAnyGame(html, games)) { return undefined; }
    return cache.delete(start).then(function () { return fetchAndKeep(cache, start); });
  });
}

function namesAnyGame(html, games) {
  return games.some(function (id) { return new RegExp("/g/" + id + "(?![A-Za-z0-9_-])").test(html); });
}

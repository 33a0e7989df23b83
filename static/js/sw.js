/* The service worker of the phones' pages (docs/offline.md), served at /sw.js (config/pwa.py)
   for the whole site's scope, and registered by the player's and the table's pages only
   (static/js/offline.js). It keeps, in the Cache API of this phone:

   - the player's page (/p/<key>/) and the table's pages (/t/<key>/…), network first: the
     server's answer when it comes within NETWORK_MS, else the last one kept (the network's
     answer, when it comes later, replaces it for the next time) — but a page only when the
     server says so (X-Offline: keep, config.pwa.OfflineMiddleware); any other answer for it
     (a deal's talon, a finished round: no-store; a redirect; a 404) deletes its copy;
   - their last JSON documents (the clock document), the same way, each marked with the
     moment it was kept (X-Offline-Stored-At: the page's clock then says «нет связи N мин»
     and counts on from it, static/js/clock.js);
   - the static files those pages use (network first too: they are not fingerprinted).

   A round's pages (its scope, /t/<round key>/) are dropped together when the round is over:
   when its page's clock says so (a message from offline.js), or when the round's page itself
   answers «not to be kept». A scope dropped stays dropped on this phone (a round never runs
   again): nothing under it is kept any more, not even its clock document.

   Nothing else: the director's pages, the API, the public pages and every POST go to the
   network untouched (a sheet saved offline is the outbox's, static/js/outbox.js). */
"use strict";

var VERSION = "2";
var CACHE = "preference-phone-" + VERSION;
var OVER = CACHE + "-over";  // the scopes of the rounds over, one empty entry each
var STATIC_URL = "__STATIC_URL__";
var NETWORK_MS = 4000;
var DECIDED_MS = 60000;

function pathOf(url) {
  return new URL(url, self.location.href).pathname;
}

function kept(url) {
  var path = pathOf(url);
  return path.indexOf("/p/") === 0 || path.indexOf("/t/") === 0 ||
    path.indexOf(STATIC_URL) === 0 || path === "/manifest.webmanifest";
}

/* "/t/<key>/" of a table's page: the pages of one round link (or a table's gate). */
function scopeOf(url) {
  var found = /^\/t\/[^\/]+\//.exec(pathOf(url));
  return found ? found[0] : "";
}

/* What an answer says about the copy of its URL: "keep", "forget", or "" — no word (the
   network failed, or the server is down or busy: 5xx, 429), and the copy kept stands. */
function verdict(response) {
  if (!response || response.status >= 500 || response.status === 429) return "";
  // A redirect (opaque to a navigation; followed by the worker's own fetch) answers no page
  // here: and a redirected answer may not answer a navigation from the cache.
  if (response.type !== "basic" || response.redirected || response.status !== 200) return "forget";
  var type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") === 0) {
    // A page only on the server's word: config.pwa sets it on the view's own answer, where
    // a page that must not be kept says no-store. (The browser's no-store that
    // config/headers.py adds to every /t/ and /p/ answer cannot tell the two apart.)
    return response.headers.get("X-Offline") === "keep" ? "keep" : "forget";
  }
  return "keep";
}

/* The cache's writes one after another, so that a copy kept while its round is dropped
   cannot land after the drop. */
var queue = Promise.resolve();
function serial(work) {
  var next = queue.then(work);
  queue = next.catch(function () {});
  return next;
}

function isOver(url) {
  var scope = scopeOf(url);
  if (!scope) return Promise.resolve(false);
  return caches.open(OVER).then(function (over) {
    return over.match(self.location.origin + scope);
  }).then(function (found) { return !!found; });
}

/* Every kept answer under ``scope`` deleted, and the scope remembered as over. */
function drop(scope) {
  if (!scope || scopeOf(scope) !== scope) return Promise.resolve();
  return serial(function () {
    return caches.open(OVER).then(function (over) {
      return over.put(self.location.origin + scope, new Response("", {
        headers: { "X-Offline-Over-At": String(Date.now()) }
      }));
    }).then(function () {
      return caches.open(CACHE);
    }).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.filter(function (r) {
          return pathOf(r.url).indexOf(scope) === 0;
        }).map(function (r) { return cache.delete(r); }));
      });
    });
  });
}

/* Not to be kept: every copy of the page (whatever its query) goes; the round's own page
   refused (its round is over, or its key is gone) drops the whole round. */
function forget(url, response) {
  var path = pathOf(url);
  var scope = (response && response.type === "basic" && response.headers.get("X-Offline-Scope")) || scopeOf(url);
  if (scope && path === scope) return drop(scope);
  return serial(function () {
    return caches.open(CACHE).then(function (cache) {
      return cache.delete(url, { ignoreSearch: true, ignoreVary: true });
    });
  });
}

function stamped(response) {
  // A copy that says when it was kept (read by clock.js when it comes back from here).
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Offline-Stored-At", String(Date.now()));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

/* The URLs whose answer this worker has just dealt with (kept, or not to be kept): a page
   that says it was shown (offline.js) is not fetched again for nothing. */
var decided = {};
function decide(url) {
  var now = Date.now();
  decided[url] = now;
  Object.keys(decided).forEach(function (u) { if (now - decided[u] > DECIDED_MS) delete decided[u]; });
}

function store(request, response) {
  var word = verdict(response);
  if (!word) return Promise.resolve();
  decide(request.url);
  if (word === "forget") return forget(request.url, response);
  return stamped(response).then(function (copy) {
    return serial(function () {
      return isOver(request.url).then(function (over) {
        if (over) return null;
        return caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
      });
    });
  });
}

function newest(responses) {
  var best = null, at = -1;
  responses.forEach(function (r) {
    var t = parseInt(r.headers.get("X-Offline-Stored-At") || "0", 10);
    if (t > at) { best = r; at = t; }
  });
  return best;
}

function fromCache(request) {
  return caches.open(CACHE).then(function (cache) {
    // The answers vary with the cookie and the language, which a request kept by the
    // worker itself does not carry: this phone's answers are its own anyway.
    return cache.match(request, { ignoreVary: true }).then(function (found) {
      if (found || request.mode !== "navigate") return found;
      // A page opened with another query (?as=E, ?saved=3): the same page, as last kept.
      return cache.matchAll(request, { ignoreSearch: true, ignoreVary: true }).then(newest);
    });
  });
}

function fetchAndStore(url) {
  var request = new Request(new URL(url, self.location.href).href, { credentials: "same-origin" });
  return fetch(request, { cache: "no-store" }).then(function (r) { return store(request, r); }).catch(function () {});
}

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) {
        return n.indexOf("preference-phone-") === 0 && n !== CACHE && n !== OVER;
      }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

/* The pages' word (static/js/offline.js):
   - {keep: [urls]}: the first page, loaded before the worker, names itself and what it uses;
   - {shown: url}: a page now shown, which may have come around the worker (a navigation
     while no worker ran yet, a redirect after a POST): kept if this worker has not just
     dealt with its answer and holds no copy of it;
   - {drop: "/t/<round key>/"}: the page's clock says its round is over. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var work = (data.keep || []).filter(kept).map(fetchAndStore);
  if (data.shown && kept(data.shown)) {
    var url = new URL(data.shown, self.location.href).href;
    if (!decided[url]) {
      work.push(caches.open(CACHE).then(function (cache) {
        return cache.match(url, { ignoreVary: true });
      }).then(function (found) { return found ? null : fetchAndStore(url); }));
    }
  }
  if (data.drop) work.push(drop(String(data.drop)));
  event.waitUntil(Promise.all(work).catch(function () {}));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (!kept(request.url)) return;
  var network = fetch(request);
  // Copied before the page reads the answer (the first of the answer's callbacks).
  var copy = network.then(function (response) { return response.clone(); });
  event.waitUntil(copy.then(function (c) { return store(request, c); }).catch(function () {}));
  event.respondWith(new Promise(function (resolve, reject) {
    var settled = false;
    function fallback() {
      return fromCache(request).then(function (found) {
        if (found && !settled) { settled = true; resolve(found); }
        return found;
      });
    }
    // Slow: the last answer kept, if there is one; the network's answer still replaces it.
    var slow = setTimeout(fallback, NETWORK_MS);
    network.then(function (response) {
      clearTimeout(slow);
      if (settled) return;
      if (verdict(response)) { settled = true; resolve(response); return; }
      // The server is down or busy (a proxy's 502, a 503): the copy kept, if any.
      fallback().then(function (found) {
        if (!found && !settled) { settled = true; resolve(response); }
      });
    }, function (error) {
      clearTimeout(slow);
      fallback().then(function (found) {
        if (!found && !settled) { settled = true; reject(error); }
      });
    });
  }));
});

/* The service worker of the phones' pages (docs/offline.md), served at /sw.js (config/pwa.py)
   for the whole site's scope, and registered by the player's and the table's pages only
   (static/js/offline.js). It keeps, in the Cache API of this phone:

   - the player's page (/p/<key>/) and the table's pages (/t/<key>/…), network first: the
     server's answer when it comes within NETWORK_MS, else the last one kept (the network's
     answer, when it comes later, replaces it for the next time);
   - their last JSON documents and fragments (the clock document, the seat block), the same
     way, each marked with the moment it was kept (X-Offline-Stored-At: the page's clock
     then says «нет связи N мин» and counts on from it, static/js/clock.js);
   - the static files those pages use (network first too: they are not fingerprinted).

   Nothing else: the director's pages, the API, the public pages and every POST go to the
   network untouched (a sheet saved offline is the outbox's, static/js/outbox.js). */
"use strict";

var VERSION = "1";
var CACHE = "preference-phone-" + VERSION;
var STATIC_URL = "__STATIC_URL__";
var NETWORK_MS = 4000;

function kept(url) {
  var path = new URL(url, self.location.href).pathname;
  return path.indexOf("/p/") === 0 || path.indexOf("/t/") === 0 ||
    path.indexOf(STATIC_URL) === 0 || path === "/manifest.webmanifest";
}

function stamped(response) {
  // A copy that says when it was kept (read by clock.js when it comes back from here).
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Offline-Stored-At", String(Date.now()));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function keep(request, response) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) {
    return Promise.resolve();
  }
  return Promise.all([caches.open(CACHE), stamped(response)]).then(function (both) {
    return both[0].put(request, both[1]);
  });
}

function fromCache(request) {
  return caches.open(CACHE).then(function (cache) {
    // The answers vary with the cookie and the language, which a request kept by the
    // worker itself does not carry: this phone's answers are its own anyway.
    return cache.match(request, { ignoreVary: true }).then(function (found) {
      if (found || request.mode !== "navigate") return found;
      // A page opened with another query (?as=E, ?saved=3): the same page as kept.
      return cache.match(request, { ignoreSearch: true, ignoreVary: true });
    });
  });
}

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) {
        return n.indexOf("preference-phone-") === 0 && n !== CACHE;
      }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

/* The page that registered the worker was loaded before it: it names what it uses. */
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.keep) || [];
  event.waitUntil(Promise.all(urls.filter(kept).map(function (url) {
    var request = new Request(new URL(url, self.location.href).href, { credentials: "same-origin" });
    return fetch(request, { cache: "no-store" }).then(function (r) { return keep(request, r); }).catch(function () {});
  })));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (!kept(request.url)) return;
  var network = fetch(request);
  // Copied before the page reads the answer (the first of the answer's callbacks).
  var copy = network.then(function (response) { return response.clone(); });
  event.waitUntil(copy.then(function (c) { return keep(request, c); }).catch(function () {}));
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
      if (!settled) { settled = true; resolve(response); }
    }, function (error) {
      clearTimeout(slow);
      fallback().then(function (found) {
        if (!found && !settled) { settled = true; reject(error); }
      });
    });
  }));
});

/* The phone's pages that open with no connection (docs/offline.md): the player's page and
   the table's pages register the service worker (static/js/sw.js, served at /sw.js), which
   keeps them — those the server lets it keep (X-Offline: keep) —, their last clock document,
   and the files they need. Service workers run only on a secure origin (HTTPS, or this
   computer itself): over plain http on a LAN address nothing is registered, and the pages
   work as before (the outbox too, static/js/outbox.js, which needs no service worker).

   - The page that registers it was loaded before the worker: it asks the worker to keep this
     page and what it uses now, so that it opens offline already the next time.
   - Every page says it was shown: a page that came around the worker (a redirect after the
     table's gate, «Кто вы?» with a PIN) is kept too, so that it reopens offline.
   - When the page's clock (static/js/clock.js) says the page's round is over, the page tells
     the worker to drop every kept page of that round (its scope, /t/<round key>/): the next
     players at the table's phone find none of its results, not even offline. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;

  function wanted() {
    var urls = [window.location.pathname + window.location.search];
    Array.prototype.forEach.call(document.querySelectorAll("script[src], link[rel~='stylesheet'], link[rel~='icon'], link[rel='manifest']"), function (el) {
      urls.push(el.getAttribute("src") || el.getAttribute("href"));
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock-url], [data-places-url]"), function (el) {
      ["data-clock-url", "data-places-url"].forEach(function (name) {
        if (el.getAttribute(name)) urls.push(el.getAttribute(name));
      });
    });
    return urls;
  }

  function tell(message) {
    return navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage(message);
    });
  }

  /* "/t/<key>/" of a table's address, "" of any other. */
  function scopeOf(href) {
    var found = /^\/t\/[^\/]+\//.exec(new URL(href, window.location.href).pathname);
    return found ? found[0] : "";
  }

  /* Is the page's round ``mine`` over by the room's clock document? The room's round on the
     clock (else its latest finished) is a later one, or this one finished. */
  function over(room, mine) {
    if (!room || !mine || room.round == null) return false;
    return room.round > mine || (room.round === mine && room.state === "finished");
  }

  /* The rounds this page belongs to: [{round: number, scopes: ["/t/<key>/"]}], read now (the
     live parts that hold them are refreshed after a clock change, not before). */
  function rounds(clock) {
    var table = scopeOf(window.location.href);
    if (table) {
      // A table's page: its own round (the round page's live part, else its clock as drawn).
      var live = document.getElementById("table-live");
      var n = live ? live.getAttribute("data-round") : clock.drawn;
      return n ? [{ round: parseInt(n, 10), scopes: [table] }] : [];
    }
    // The player's page: the round now at his table, whose link his seat block shows.
    var places = document.getElementById("places");
    if (!places || !places.getAttribute("data-round")) return [];
    var scopes = [];
    Array.prototype.forEach.call(places.querySelectorAll("a[href^='/t/']"), function (a) {
      var scope = scopeOf(a.getAttribute("href"));
      if (scope && scopes.indexOf(scope) < 0) scopes.push(scope);
    });
    return scopes.length ? [{ round: parseInt(places.getAttribute("data-round"), 10), scopes: scopes }] : [];
  }

  var dropped = {};
  function follow(root) {
    // The round number the page was drawn with, before the clock's first answer redraws it.
    var drawn = root.querySelector("[data-round]");
    var clock = { drawn: drawn ? drawn.textContent.trim() : "" };
    if (!/^\d+$/.test(clock.drawn)) clock.drawn = "";
    root.addEventListener("clock:update", function (e) {
      var room = e.detail && e.detail.rooms && e.detail.rooms[0];
      rounds(clock).forEach(function (r) {
        if (!over(room, r.round)) return;
        r.scopes.forEach(function (scope) {
          if (dropped[scope]) return;
          dropped[scope] = true;
          tell({ drop: scope }).catch(function () {});
        });
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-clock-url]"), follow);

  window.addEventListener("load", function () {
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return tell(first ? { keep: wanted() } : { shown: window.location.pathname + window.location.search });
    }).catch(function () { /* no worker: the page works as before */ });
  });
})();

/* The phone's pages that open with no connection (docs/offline.md): the player's page and
   the table's pages register the service worker (static/js/sw.js, served at /sw.js), which
   keeps them, their last clock document and seat block, and the files they need. Service
   workers run only on a secure origin (HTTPS, or this computer itself): over plain http on
   a LAN address nothing is registered, and the pages work as before (the outbox too,
   static/js/outbox.js, which needs no service worker).

   The page that registers it was loaded before the worker: it asks the worker to keep this
   page and what it uses now, so that it opens offline already the next time. */
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

  window.addEventListener("load", function () {
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (first && registration.active) registration.active.postMessage({ keep: wanted() });
    }).catch(function () { /* no worker: the page works as before */ });
  });
})();

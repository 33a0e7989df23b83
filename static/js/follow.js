// A public results page follows the results by itself (scoring.standings.public_cache): every 15 s,
// while it is shown, it asks the event's small version document and reloads only when the
// version it was drawn at has changed — a sheet counted, a deal played out, publishing.
// The document is tiny and answers 304 to a tab that has it; the page itself is the shared
// copy, drawn once per change. A tab in the background asks again when it is shown.
(function () {
  "use strict";
  var main = document.querySelector("main[data-version-url]");
  if (!main) return;
  var url = main.getAttribute("data-version-url");
  var drawn = main.getAttribute("data-version");
  var EVERY = 15000;
  var timer = null;

  function later(ms) {
    if (timer === null) timer = setTimeout(ask, ms);
  }

  function ask() {
    timer = null;
    if (document.hidden) return;
    fetch(url, { credentials: "omit", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (doc) {
        if (doc && doc.version && doc.version !== drawn) {
          window.location.reload();
          return;
        }
        later(EVERY);
      })
      .catch(function () { later(EVERY * 2); });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) later(500 + Math.random() * 2000);
  });
  later(EVERY + Math.random() * 5000);
})();

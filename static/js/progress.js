// The session page follows the worker's analysis without a reload: it asks the session's
// analysis.json every few seconds while deals are still being analysed, and stops when
// they all are (or the page is hidden: it asks again when shown).
(function () {
  "use strict";
  var box = document.querySelector("[data-progress-url]");
  if (!box) return;
  var url = box.getAttribute("data-progress-url");
  var text = box.querySelector("[data-progress-text]");
  var reload = box.querySelector("[data-progress-reload]");
  if (reload) reload.hidden = true;
  var timer = null;

  function ask() {
    timer = null;
    if (document.hidden) return;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (doc) {
        if (!doc) { if (reload) reload.hidden = false; return; }
        text.textContent = doc.text;
        if (doc.analysing) timer = setTimeout(ask, 3000);
        else box.removeAttribute("data-progress-url");
      })
      .catch(function () { timer = setTimeout(ask, 10000); });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && timer === null && box.hasAttribute("data-progress-url")) ask();
  });
  timer = setTimeout(ask, 3000);
})();

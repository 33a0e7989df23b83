/* «Явка» on the room's page (director/_console_checkin.html): while the check-in is open, a
   player's tap shows without a reload. The console's poller (console.js) learns of it — a
   check-in changes the console's version — and says so by «console:update»; the section is
   then fetched again from the page itself. Not while the director is choosing or typing in
   it (a substitute chosen stays chosen), and not once the check-in is closed: during a round
   the board changes with every sheet, and the list no longer does. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("console");
    if (!root) return;
    var busy = false;
    root.addEventListener("console:update", function () {
      var now = document.getElementById("checkin");
      if (!now || busy) return;
      var state = now.querySelector("[data-checkin-asked]");
      if (!state || state.getAttribute("data-checkin-asked") !== "1") return;
      if (now.contains(document.activeElement)) return;
      var chosen = Array.prototype.some.call(now.querySelectorAll("select"), function (s) { return !!s.value; });
      if (chosen) return;
      var url = root.getAttribute("data-page-url") || window.location.pathname;
      busy = true;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
        .then(function (html) {
          var next = new DOMParser().parseFromString(html, "text/html").getElementById("checkin");
          var current = document.getElementById("checkin");
          if (!next || !current || current.contains(document.activeElement)) return;
          var filter = document.getElementById("checkin-only-missing");
          var only = !!(filter && filter.checked);
          var folded = current.querySelector("details");
          var open = folded ? folded.open : true;
          current.replaceWith(document.importNode(next, true));
          var again = document.getElementById("checkin-only-missing");
          if (again) again.checked = only;
          var unfolded = document.querySelector("#checkin details");
          if (unfolded) unfolded.open = open;  // as the director left it
        })
        .catch(function () {})
        .finally(function () { busy = false; });
    });
  });
})();

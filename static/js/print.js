/* A «Print» button: <button type="button" data-print>…</button> prints the page. A script
   of its own because the pages' Content-Security-Policy runs no inline script (no
   onclick="…"); loaded by every page that has such a button. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (!button) return;
    event.preventDefault();
    window.print();
  });
})();

/* A phone's banner for each announcement (templates/includes/banner.html): the news as the
   clock (clock.js) hears it, on the player's page and the table's. On «Конец тура!» a
   player's page says first where he goes: the line its seat blocks carry for his next seat
   (data-your-next, templates/player/_places.html), read as the news arrives — before the
   blocks are refreshed, they already hold it. The general moves follow once: the clock
   panel's own copy of them hides while the banner shows (body.banner-shown). */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var banner = document.getElementById("banner");
    var root = document.querySelector("[data-clock-url]");
    if (!banner || !root) return;
    var head = banner.querySelector("[data-banner-head]");
    var yours = banner.querySelector("[data-banner-yours]");
    var details = banner.querySelector("[data-banner-details]");

    function yourNext() {
      var el = document.querySelector("[data-your-next]");
      return el ? el.getAttribute("data-your-next") : "";
    }

    root.addEventListener("clock:announcement", function (e) {
      var a = e.detail.announcement;
      var line = a.kind === "end" ? yourNext() : "";
      head.textContent = a.headline;
      yours.textContent = line;
      yours.hidden = !line;
      details.textContent = a.details || "";
      details.hidden = !a.details;
      banner.hidden = false;
      document.body.classList.add("banner-shown");
    });
    banner.querySelector("[data-banner-close]").addEventListener("click", function () {
      banner.hidden = true;
      document.body.classList.remove("banner-shown");
    });
  });
})();

/* A player's phone: a banner for each announcement, and the seat blocks refreshed when the
   round changes (the clock itself is clock.js). */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("player-clock");
    var banner = document.getElementById("banner");
    if (!root) return;
    var placesUrl = root.getAttribute("data-places-url");
    var last = null;

    function refreshPlaces() {
      fetch(placesUrl, { cache: "no-store" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var holder = document.getElementById("places");
          var tmp = document.createElement("div");
          tmp.innerHTML = html.trim();
          var fresh = tmp.querySelector("#places");
          if (holder && fresh) holder.replaceWith(fresh);
        })
        .catch(function () {});
    }

    root.addEventListener("clock:update", function (e) {
      var room = e.detail.rooms[0];
      if (!room) return;
      var key = room.round + ":" + room.state + ":" + (room.next_round || "");
      if (last !== null && key !== last) refreshPlaces();
      last = key;
    });

    root.addEventListener("clock:announcement", function (e) {
      var a = e.detail.announcement;
      banner.querySelector("[data-banner-head]").textContent = a.headline;
      banner.querySelector("[data-banner-details]").textContent = a.details || "";
      banner.hidden = false;
      refreshPlaces();
    });
    // Results come in as the tables enter their sheets: look again now and then.
    setInterval(refreshPlaces, 20000);
    banner.querySelector("[data-banner-close]").addEventListener("click", function () {
      banner.hidden = true;
    });
  });
})();

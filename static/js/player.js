/* A player's phone: the seat blocks refreshed when the round changes (the clock itself is
   clock.js, the announcements' banner banner.js).

   One fetch of the seat fragment per change: a clock answer that brings a new announcement
   usually also changes the round's state («Конец тура!» finishes it), and both used to fetch.
   Now what the fragment depends on (round, state, next round, latest announcement) is one key,
   compared once per clock answer; the announcement event only shows the banner. Results come
   in as the tables enter their sheets, so the fragment is also fetched 20 s after the last
   fetch (not 20 s after the page opened: a change just fetched it).

   After a change every phone of the hall wants its fragment at the same moment; each one
   waits a random moment of up to SPREAD_MS first, so that 400 phones do not queue behind each
   other (the banner and the clock show the news at once; the seat blocks follow). */
(function () {
  "use strict";
  var RESULTS_MS = 20000;
  var SPREAD_MS = 2500;

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("player-clock");
    if (!root) return;
    var placesUrl = root.getAttribute("data-places-url");
    var last = null;
    var busy = false, again = false, timer = null, returned = false;

    function later() {
      clearTimeout(timer);
      timer = setTimeout(refreshPlaces, RESULTS_MS);
    }

    function refreshPlaces() {
      // A change while a fetch is on its way: fetch once more when it answers, not twice now.
      if (busy) { again = true; return; }
      busy = true;
      clearTimeout(timer);
      fetch(placesUrl, { cache: "no-store" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var holder = document.getElementById("places");
          var tmp = document.createElement("div");
          tmp.innerHTML = html.trim();
          var fresh = tmp.querySelector("#places");
          if (holder && fresh) {
            // The fragment is drawn once for every poll, without a CSRF token: its forms
            // («Я на месте») take the page's own.
            var token = document.querySelector('#page-csrf input[name="csrfmiddlewaretoken"]');
            Array.prototype.forEach.call(fresh.querySelectorAll('form[method="post"]'), function (f) {
              if (token && !f.querySelector('input[name="csrfmiddlewaretoken"]')) f.insertBefore(token.cloneNode(), f.firstChild);
            });
            holder.replaceWith(fresh);
          }
        })
        .catch(function () {})
        .finally(function () {
          busy = false;
          if (again) { again = false; refreshPlaces(); } else { later(); }
        });
    }

    root.addEventListener("clock:update", function (e) {
      var room = e.detail.rooms[0];
      if (!room) return;
      var news = room.announcement ? room.announcement.id : "";
      var key = room.round + ":" + room.state + ":" + (room.next_round || "") + ":" + news;
      if ((last !== null && key !== last) || returned) {
        returned = false;
        clearTimeout(timer);
        timer = setTimeout(refreshPlaces, Math.random() * SPREAD_MS);
      }
      last = key;
    });

    // Back online after an outage: the seat blocks may be out of date. The clock's first
    // answer (clock.js spreads it over up to 3 s) fetches them once, whatever it says —
    // not a fetch of its own now and another for the change the clock then brings.
    window.addEventListener("online", function () {
      clearTimeout(timer);
      returned = true;
    });

    later();
  });
})();

/* The table's scorer form keeps what was typed on the phone (localStorage) until the sheet
   is saved, and does not send while the phone is offline, so a lost connection loses
   nothing: the page says so while the connection is down (and stops saying it when it is
   back), and the form opened again takes back every field of the draft. Sending twice
   records once (the server compares the results). */
(function () {
  "use strict";
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      // Never the PIN: the draft stays on a phone the table shares.
      return el.name && el.type !== "hidden" && el.type !== "submit" && el.type !== "password" &&
        el.name !== "csrfmiddlewaretoken" && el.name !== "pin";
    });
  }
  function read(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function save(form, key) {
    var data = {};
    fields(form).forEach(function (el) {
      if (el.type === "checkbox") {
        // A group of boxes of one name (the talon's cards) keeps every box ticked.
        if (!(el.name in data)) data[el.name] = [];
        if (el.checked) data[el.name].push(el.value);
      }
      else if (el.type === "radio") { if (el.checked) data[el.name] = el.value; }
      else data[el.name] = el.value;
    });
    try { localStorage.setItem(key, JSON.stringify(data)); } catch (e) {}
  }
  /* A form shown fresh takes the draft whole: the server's defaults (e.g. the pre-selected
     «nobody: passed out») must not win over what was typed. Only who is entering stays as
     the page says when it names him. */
  function restore(form, key) {
    var data = read(key);
    if (!data) return;
    var named = form.querySelector('[name="as"]:checked');
    fields(form).forEach(function (el) {
      if (!(el.name in data) || (named && el.name === "as")) return;
      if (el.type === "checkbox") el.checked = [].concat(data[el.name]).indexOf(el.value) >= 0;
      else if (el.type === "radio") el.checked = el.value === data[el.name];
      else el.value = data[el.name];
    });
  }
  /* A refused form comes back with its problems summed up at the top (#error-summary,
     scoring/_error_summary.html), which stays in sight (sticky): go to the first problem's
     field, smoothly, below the summary and with its label, and focus it; each link of the
     summary does the same. Without JavaScript the field's autofocus and the links'
     fragments do it at once. */
  function shown(el) { return el.getClientRects().length > 0; }
  function target(link) {
    var id = decodeURIComponent((link.hash || "").slice(1));
    return id ? document.getElementById(id) : null;
  }
  function goTo(summary, field, smooth) {
    var closed = field.closest("details:not([open])");
    if (closed) closed.open = true;
    if (!field.hasAttribute("tabindex") && field.tabIndex < 0) field.tabIndex = -1;
    var pad = summary.getBoundingClientRect().height + 12;
    document.documentElement.style.scrollPaddingTop = pad + "px";
    // A talon card's box is hidden under its label: the label is what shows.
    var seen = field.getBoundingClientRect().width <= 1 && field.labels && field.labels[0] || field;
    var y = window.pageYOffset;
    var bottom = seen.getBoundingClientRect().bottom + y;
    var room = window.innerHeight - pad - 8;
    // The field's group with its legend, else the field with its label, else the field alone.
    var around = [field.closest("fieldset"), field.closest(".field"), seen].filter(function (el) {
      return el && bottom - (el.getBoundingClientRect().top + y) <= room;
    })[0] || seen;
    var top = Math.max(0, around.getBoundingClientRect().top + y - pad);
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    field.focus({ preventScroll: true });
    window.scrollTo({ top: top, behavior: smooth && !reduce ? "smooth" : "auto" });
  }
  function summed(summary) {
    var links = Array.prototype.slice.call(summary.querySelectorAll('a[href^="#"]'));
    var first = links.map(target).filter(function (el) { return el && shown(el); })[0];
    if (first) goTo(summary, first, true);
    summary.addEventListener("click", function (e) {
      var link = e.target.closest('a[href^="#"]');
      var field = link && target(link);
      if (!field) return;
      e.preventDefault();
      goTo(summary, field, true);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var summary = document.getElementById("error-summary");
    // After the other scripts of the page (talon.js shows the talon's cards or not).
    if (summary) window.setTimeout(function () { summed(summary); }, 0);
    var page = document.getElementById("table-page");
    var saved = page && page.getAttribute("data-saved-key");
    if (saved) { try { localStorage.removeItem(saved); } catch (e) {} }
    var form = document.querySelector("form[data-storage-key]");
    if (!form) return;
    var key = form.getAttribute("data-storage-key");
    // A form sent back by the server holds what was just typed: that is the draft now.
    if (form.hasAttribute("data-fresh")) restore(form, key); else save(form, key);
    var note = document.getElementById("offline-note");
    function connection() { if (note) note.hidden = navigator.onLine !== false; }
    window.addEventListener("offline", connection);
    window.addEventListener("online", connection);
    connection();
    form.addEventListener("input", function () { save(form, key); });
    form.addEventListener("change", function () { save(form, key); });
    form.addEventListener("submit", function (e) {
      save(form, key);
      // «Сохранить» offline goes to the phone's outbox (outbox.js), which sends it by itself.
      if (e.submitter && e.submitter.name === "save" && window.PreferenceOutbox) return;
      if (navigator.onLine === false) {
        e.preventDefault();
        connection();
        if (note) note.focus();
      }
    });
  });
})();

/* The round page follows its round (#table-live, its data-round and data-state): when its
   room's clock (#table-clock, clock.js) shows the round start — «Внести» appears — or end,
   or the next round, the page's live part is fetched again and put in place. Never while a
   player types in one of its forms (a PIN half typed stays): it waits for the next poll.
   The hall's tables all see a change at once; each waits a random moment of up to
   SPREAD_MS first, so that they do not queue behind each other. */
(function () {
  "use strict";
  var SPREAD_MS = 2500;
  document.addEventListener("DOMContentLoaded", function () {
    var clockRoot = document.getElementById("table-clock");
    if (!clockRoot || !document.getElementById("table-live")) return;
    var first = document.getElementById("table-live");
    var last = first.getAttribute("data-round") + ":" + first.getAttribute("data-state");
    var wanted = false, busy = false, timer = null;

    function typing(live) {
      var el = document.activeElement;
      // A field of a form being filled in (a button pressed keeps the focus: not typing).
      if (el && el.form && live.contains(el) && el.tagName !== "BUTTON") return true;
      return Array.prototype.some.call(live.querySelectorAll("input"), function (input) {
        return input.type === "password" && input.value;
      });
    }
    function refresh() {
      var live = document.getElementById("table-live");
      if (!wanted || busy || !live) return;
      if (typing(live)) return;  // the next clock answer tries again
      busy = true;
      fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("table-live");
          var now = document.getElementById("table-live");
          // The round is over and this phone proved nobody: the page is «Тур окончен» now,
          // not a live part to swap — the round's results leave the screen (§4.5).
          if (!fresh && html.indexOf('id="round-over"') !== -1) { window.location.reload(); return; }
          if (fresh && now && !typing(now)) { now.replaceWith(fresh); wanted = false; }
        })
        .catch(function () {})
        .finally(function () { busy = false; });
    }
    // A sheet of the phone's outbox just reached the server (outbox.js): its deal shows it.
    document.addEventListener("outbox:sent", function () { wanted = true; refresh(); });
    clockRoot.addEventListener("clock:update", function (e) {
      var room = e.detail.rooms[0];
      if (!room) return;
      var key = room.round + ":" + room.state;
      if (key !== last) {
        last = key;
        wanted = true;
        clearTimeout(timer);
        timer = setTimeout(refresh, Math.random() * SPREAD_MS);
      } else if (wanted) {
        refresh();
      }
    });
  });
})();

/* «Позвать судью» on a phone (templates/table/_call.html, events/calls.py): the form gets a
   fresh client id when sent (the outbox sends the same id again after a lost answer, so the
   server makes one call of it), and while a call is open the page polls the table's tiny
   call document (call.json, from the server's cache) to show «Судья идёт», and the button
   again once the director has resolved it. No poll while no call is open. */
(function () {
  "use strict";
  var POLL_MS = 5000;

  function newId() {
    if (window.crypto && crypto.getRandomValues) {
      var a = new Uint32Array(3);
      crypto.getRandomValues(a);
      return a[0].toString(36) + a[1].toString(36) + a[2].toString(36);
    }
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("call-box");
    if (!box) return;
    var url = box.getAttribute("data-call-json");
    var status = box.querySelector("[data-call-status]");
    var text = box.querySelector("[data-call-text]");
    var ago = box.querySelector("[data-call-ago]");
    var formBox = box.querySelector("[data-call-form-box]");
    var timer = null, skew = 0;

    // Before the outbox's own listener (capture): each new call its own id.
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!form || !form.hasAttribute || !form.hasAttribute("data-call-new")) return;
      var id = form.querySelector('input[name="client_id"]');
      if (id && !form.hasAttribute("data-outbox-direct")) id.value = newId();
    }, true);

    function showAgo() {
      var at = Date.parse(box.getAttribute("data-opened-at") || "");
      if (!ago) return;
      if (isNaN(at) || box.getAttribute("data-call-state") !== "open") { ago.textContent = ""; return; }
      var minutes = Math.max(0, Math.floor((Date.now() + skew - at) / 60000));
      ago.textContent = "· " + (minutes < 1 ? box.getAttribute("data-just-now") : box.getAttribute("data-ago").replace("{n}", String(minutes)));
    }

    function show(doc) {
      var state = doc.state || "";
      if (doc.now) skew = Date.parse(doc.now) - Date.now();
      box.setAttribute("data-call-state", state);
      box.setAttribute("data-opened-at", doc.opened_at || "");
      box.classList.toggle("call-open", state === "open");
      box.classList.toggle("call-going", state === "going");
      if (state) {
        text.textContent = state === "going" ? box.getAttribute("data-label-going")
          : box.getAttribute("data-label-open").replace("{reason}", doc.reason_name || "");
      }
      status.hidden = !state;
      formBox.hidden = !!state;
      if (!state) formBox.open = false;
      showAgo();
    }

    function poll() {
      clearTimeout(timer);
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
        .then(function (doc) { show(doc); if (doc.state) later(); })
        .catch(function () { later(); });
    }
    function later() {
      clearTimeout(timer);
      timer = setTimeout(poll, POLL_MS * (0.8 + Math.random() * 0.4));
    }

    // A call queued offline has gone: its state shows from now on.
    document.addEventListener("outbox:sent", function () { poll(); });
    setInterval(showAgo, 30000);
    showAgo();
    if (box.getAttribute("data-call-state")) later();
  });
})();

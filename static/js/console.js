/* The director's live console on the room page: polls the room's console.html and, when its
   version changed, swaps in the board the server drew with the page's own template (the
   grid of sheets, the counts, the disputes and late tables, the round pills) and shows the
   publish button that fits. The server-rendered page is the baseline without JS. Another
   director's correction or confirmation shows here within one poll; when the clock
   controls would look different (another director paused the round, a round ended), they
   and the announcements are fetched again from the page itself. */
(function () {
  "use strict";

  function Console(root) {
    this.root = root;
    this.url = root.getAttribute("data-console-url");
    this.pageUrl = root.getAttribute("data-page-url");
    this.version = root.getAttribute("data-version");
    this.controls = root.getAttribute("data-controls");
    this.interval = parseInt(root.getAttribute("data-poll-ms") || "3000", 10);
    this.timer = null;
    this.busy = false;
    this.again = false;
    this.partsDue = false;
    var self = this;
    this.status = root.querySelector("[data-console-status]");
    root.querySelectorAll("[data-publish] form").forEach(function (form) {
      form.addEventListener("submit", function (e) { self.publish(e, form); });
    });
  }

  Console.prototype.schedule = function (ms) {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.poll(); }, ms);
  };

  Console.prototype.poll = function () {
    if (this.busy) { this.again = true; return; }
    this.busy = true;
    var self = this;
    var sep = this.url.indexOf("?") < 0 ? "?" : "&";
    fetch(this.url + sep + "since=" + encodeURIComponent(this.version), {
      cache: "no-store", credentials: "same-origin", headers: { Accept: "text/html" }
    })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.status === 204 ? null : r.text();
      })
      .then(function (html) {
        // A login page (the session expired) has no board: shown as offline.
        if (html !== null && !self.swap(html)) throw new Error("no board");
        self.online();
        if (html !== null) self.updated();
        if (self.partsDue) self.reloadParts();
      })
      .catch(function () { self.offline(); })
      .finally(function () {
        self.busy = false;
        if (self.again) { self.again = false; self.poll(); } else { self.schedule(self.interval); }
      });
  };

  Console.prototype.online = function () {
    if (!this.status) return;
    this.status.classList.remove("offline");
    if (this.status.getAttribute("data-offline") === "1") {
      this.status.textContent = "";
      this.status.removeAttribute("data-offline");
    }
  };

  Console.prototype.offline = function () {
    if (!this.status) return;
    this.status.classList.add("offline");
    this.status.setAttribute("data-offline", "1");
    this.status.textContent = this.status.getAttribute("data-label-offline");
  };

  /* The server drew the board (director/_console_board.html, the page's own template):
     it replaces the old one whole; a cell whose state, version or marks changed since is
     marked to catch the eye. Focus on a link of the board stays on the same link. */
  Console.prototype.swap = function (html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("console-board");
    var old = document.getElementById("console-board");
    if (!fresh || !old) return false;
    fresh.querySelectorAll("tr[data-table] td[data-key]").forEach(function (td) {
      var table = td.parentNode.getAttribute("data-table");
      var before = old.querySelector('tr[data-table="' + table + '"] td[data-deal="' + td.getAttribute("data-deal") + '"]');
      if (before && before.getAttribute("data-key") !== td.getAttribute("data-key")) td.classList.add("changed");
    });
    var focused = old.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    var known = callIds(old);
    var board = document.importNode(fresh, true);
    old.replaceWith(board);
    this.calls(board);
    var rang = false;
    board.querySelectorAll('[data-call-state="open"]').forEach(function (li) {
      if (known.indexOf(li.getAttribute("data-call-id")) < 0) { li.classList.add("call-new"); rang = true; }
    });
    if (rang) beep();
    board.querySelectorAll("td.changed").forEach(function (td) {
      td.addEventListener("animationend", function () { td.classList.remove("changed"); });
    });
    if (focused) {
      var same = Array.prototype.find.call(board.querySelectorAll("a[href]"), function (a) {
        return a.getAttribute("href") === focused;
      });
      if (same) same.focus();
    }
    this.version = board.getAttribute("data-version");
    this.root.setAttribute("data-version", this.version);
    var open = board.getAttribute("data-results-public") === "1";
    this.root.querySelectorAll("[data-publish] form").forEach(function (form) {
      form.hidden = (form.getAttribute("data-public") === "1") !== open;
    });
    if (board.getAttribute("data-controls") !== this.controls) this.reloadParts();
    this.root.dispatchEvent(new CustomEvent("console:update", { detail: { version: this.version } }));
    return true;
  };

  /* The tables' calls (director/_console_calls.html): the board's copy has no CSRF token
     (one copy serves every director), so each form gets the page's own; and how long ago
     each call came, counted here (the copy is drawn once per change). */
  Console.prototype.calls = function (board) {
    var token = this.root.getAttribute("data-csrf");
    board.querySelectorAll("form[data-call-form]").forEach(function (form) {
      if (!token || form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.appendChild(input);
    });
    callsAgo(board);
  };

  function callIds(board) {
    return Array.prototype.map.call(board.querySelectorAll("[data-call-id]"), function (li) {
      return li.getAttribute("data-call-id");
    });
  }

  function callsAgo(scope) {
    var box = scope.querySelector("[data-calls]");
    if (!box) return;
    box.querySelectorAll("time[data-call-since]").forEach(function (t) {
      var at = Date.parse(t.getAttribute("datetime"));
      if (isNaN(at)) return;
      var minutes = Math.max(0, Math.floor((Date.now() - at) / 60000));
      t.textContent = "· " + (minutes < 1 ? box.getAttribute("data-just-now") : box.getAttribute("data-ago").replace("{n}", String(minutes)));
    });
  }

  /* A short beep on the director's laptop when a table calls: Web Audio, no sound file
     (the browser lets a page sound once the director has clicked or typed on it). */
  var audio = null;
  function audioContext() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) { try { audio = new Ctx(); } catch (e) { return null; } }
    if (audio.state === "suspended" && audio.resume) audio.resume().catch(function () {});
    return audio;
  }
  function beep() {
    var ctx = audioContext();
    if (!ctx) return;
    try {
      [0, 0.25].forEach(function (start) {
        var osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
        gain.gain.exponentialRampToValueAtTime(0.3, ctx.currentTime + start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + 0.2);
        osc.connect(gain).connect(ctx.destination);
        osc.start(ctx.currentTime + start);
        osc.stop(ctx.currentTime + start + 0.22);
      });
    } catch (e) {}
    window.preferenceCallBeeps = (window.preferenceCallBeeps || 0) + 1;
  }

  Console.prototype.updated = function () {
    if (!this.status) return;
    var t = new Date();
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    this.status.textContent = this.status.getAttribute("data-label-updated") + " " +
      pad(t.getHours()) + ":" + pad(t.getMinutes()) + ":" + pad(t.getSeconds());
  };

  /* The clock controls and the announcements, fetched again from the page itself; not while
     the director is typing in them (tried again after the next poll). */
  Console.prototype.reloadParts = function () {
    var self = this;
    var controls = document.getElementById("clock-controls");
    if (controls && controls.contains(document.activeElement)) { this.partsDue = true; return; }
    this.partsDue = false;
    // The room page itself, not window.location: after a refused action or a confirmation
    // the browser shows a POST's answer, whose address cannot be fetched again.
    var page = window.location.search.indexOf("confirm=") >= 0 || !this.pageUrl ? window.location.href : this.pageUrl;
    fetch(page, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("console");
        ["clock-controls", "announcements"].forEach(function (id) {
          var now = document.getElementById(id), next = page.getElementById(id);
          if (!now || !next) return;
          if (id === "clock-controls" && now.contains(document.activeElement)) { self.partsDue = true; return; }
          now.replaceWith(document.importNode(next, true));
        });
        if (fresh && !self.partsDue) self.controls = fresh.getAttribute("data-controls");
      })
      .catch(function () { self.partsDue = true; });
  };

  /* Publishing stays on this page: the form is sent in the background and the console
     shows the new state (without JS the form works as usual). */
  Console.prototype.publish = function (event, form) {
    event.preventDefault();
    var self = this;
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); })
      .then(function () { self.poll(); })
      .catch(function () { form.submit(); })
      .finally(function () { if (button) button.disabled = false; });
  };

  window.PreferenceConsole = { Console: Console };
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-console-url]");
    if (!root) return;
    var console_ = new Console(root);
    root.preferenceConsole = console_;
    var board = document.getElementById("console-board");
    if (board) console_.calls(board);
    setInterval(function () { callsAgo(document); }, 30000);
    // The beep of a call may sound once the director has touched the page.
    ["click", "keydown"].forEach(function (type) {
      document.addEventListener(type, function () { audioContext(); }, { once: true });
    });
    console_.schedule(console_.interval);
    // News from the clock (a round started or ended): look at once, not at the next poll.
    document.querySelectorAll("[data-clock-url]").forEach(function (clock) {
      clock.addEventListener("clock:announcement", function () {
        console_.poll();
        console_.reloadParts();
      });
    });
  });
})();

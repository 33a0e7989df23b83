/* The round clock: polls the server's clock document, counts down locally, corrected for
   the offset between this device's clock and the server's, and announces news aloud.
   Used by the hall screen, the director's room page and the players' phones.

   A room's panel is keyed by the room's own id (data-room), never by its number: every
   session has a room 1. The hall screen shows the rooms the document lists, which change
   when the next session starts: it makes their panels from its <template data-room-template>
   (the sound stays on: no reload). A phone has one panel (data-room-follow) that shows
   whichever room its document gives: his session's, then the next one's. */
(function () {
  "use strict";

  var ONLINE_SPREAD_MS = 3000;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + ":" + pad(m) : pad(m)) + ":" + pad(sec);
  }

  /* A warning («Осталось 5 минут») holds while it is true (issue 33): its round on the
     clock, time left, and no more left than it said (a round extended beyond it). Gone at
     the end of the round — on this screen's own countdown too, before the server's «Конец
     тура!» arrives — or once the round was extended. Other news stays until the next. */
  function stale(a, room, ms) {
    if (a.kind !== "warning") return false;
    if (room.state !== "running" || a.round !== room.round || ms <= 0) return true;
    // Fired with minutes = the time left rounded: at most half a minute more than it says.
    return ms > (a.minutes || 0) * 60000 + 31000;
  }

  function beep() {
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      var ctx = beep.ctx || (beep.ctx = new Ctx());
      [0, 0.35].forEach(function (at) {
        var osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.25, ctx.currentTime + at);
        gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + at + 0.3);
        osc.connect(gain); gain.connect(ctx.destination);
        osc.start(ctx.currentTime + at); osc.stop(ctx.currentTime + at + 0.3);
      });
    } catch (e) { /* no sound on this device */ }
  }

  function speak(text, lang) {
    if (!("speechSynthesis" in window) || !text) return;
    var u = new SpeechSynthesisUtterance(text);
    u.lang = lang === "en" ? "en-GB" : "ru-RU";
    var voices = window.speechSynthesis.getVoices();
    for (var i = 0; i < voices.length; i++) {
      if (voices[i].lang && voices[i].lang.indexOf(u.lang.slice(0, 2)) === 0) { u.voice = voices[i]; break; }
    }
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  }

  function Clock(root) {
    this.root = root;
    this.url = root.getAttribute("data-clock-url");
    this.interval = parseInt(root.getAttribute("data-poll-ms") || "1000", 10);
    this.lang = document.documentElement.lang || "ru";
    this.offset = 0;          // server time − local time, ms
    this.doc = null;
    this.fetchedAt = 0;       // local time of the last answer
    this.seen = {};           // room id → last announcement id
    this.first = true;
    this.sound = root.hasAttribute("data-sound") && localStorage.getItem("clock-sound") === "on";
    var toggle = root.querySelector("[data-sound-toggle]");
    if (toggle) {
      var self = this;
      toggle.setAttribute("aria-pressed", this.sound ? "true" : "false");
      toggle.addEventListener("click", function () {
        self.sound = !self.sound;
        localStorage.setItem("clock-sound", self.sound ? "on" : "off");
        toggle.setAttribute("aria-pressed", self.sound ? "true" : "false");
        if (self.sound) { beep(); speak(toggle.getAttribute("data-test-phrase"), self.lang); }
      });
    }
  }

  /* What the phone last heard (docs/offline.md): the offset to the server's clock and when
     the server last answered, kept on the phone so that a page opened with no connection
     (from the service worker's cache, static/js/sw.js) counts on from its last document. */
  Clock.prototype.remember = function () {
    try {
      localStorage.setItem("clock-heard:" + this.url, JSON.stringify({ offset: this.offset, at: this.heardAt }));
    } catch (e) {}
  };
  Clock.prototype.recall = function () {
    try {
      var kept = JSON.parse(localStorage.getItem("clock-heard:" + this.url) || "null");
      if (kept) { this.offset = kept.offset || 0; this.heardAt = kept.at || 0; }
    } catch (e) {}
  };

  Clock.prototype.poll = function () {
    var self = this, sent = Date.now();
    clearTimeout(this.timer);
    fetch(this.url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        // An answer of the service worker's cache: the last document, not the server now.
        var stored = r.headers.get("X-Offline-Stored-At");
        return r.json().then(function (doc) { return { doc: doc, stored: stored ? parseInt(stored, 10) : 0 }; });
      })
      .then(function (answer) {
        var doc = answer.doc, received = Date.now();
        if (answer.stored) {
          if (!self.heardAt) self.heardAt = answer.stored;
          self.cut = true;
        } else {
          var serverNow = Date.parse(doc.now);
          self.offset = serverNow - (sent + received) / 2;
          self.heardAt = received;
          self.cut = false;
          self.remember();
        }
        self.doc = doc; self.fetchedAt = received;
        self.root.classList.toggle("offline", self.cut);
        self.news(doc);
        self.render();
        self.root.dispatchEvent(new CustomEvent("clock:update", { detail: doc }));
      })
      .catch(function () { self.cut = true; self.root.classList.add("offline"); self.render(); })
      .finally(function () {
        clearTimeout(self.timer);
        self.timer = setTimeout(function () { self.poll(); }, self.interval);
      });
  };

  /* «нет связи N мин» while the server does not answer (a phone's page says it: the root's
     data-offline-label); and «время тура вышло» once the countdown reaches zero, until the
     server's document says the round is over. */
  Clock.prototype.banner = function () {
    var label = this.root.getAttribute("data-offline-label");
    if (!label) return;
    var el = this.root.querySelector("[data-offline-banner]");
    if (!el) {
      el = document.createElement("p");
      el.className = "notice offline-banner";
      el.setAttribute("role", "status");
      el.setAttribute("data-offline-banner", "");
      el.hidden = true;
      this.root.insertBefore(el, this.root.firstChild);
    }
    var text = "";
    if (this.cut) {
      var minutes = this.heardAt ? Math.floor((Date.now() - this.heardAt) / 60000) : 0;
      text = minutes >= 1 ? (this.root.getAttribute("data-offline-minutes") || label).replace("{n}", minutes) : label;
    }
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
  };

  Clock.prototype.remaining = function (room) {
    if (room.state === "running" && room.ends_at) {
      return Date.parse(room.ends_at) - (Date.now() + this.offset);
    }
    if (room.state === "paused") {
      return room.remaining_ms;
    }
    if (room.state === "finished") return 0;
    return room.length_ms;
  };

  Clock.prototype.news = function (doc) {
    var self = this;
    doc.rooms.forEach(function (room) {
      var a = room.announcement;
      if (!a) return;
      var before = self.seen[room.id];
      self.seen[room.id] = a.id;
      if (self.first || before === a.id) return;
      self.root.dispatchEvent(new CustomEvent("clock:announcement", { detail: { room: room, announcement: a } }));
      if (navigator.vibrate) { try { navigator.vibrate([300, 150, 300]); } catch (e) {} }
      if (self.sound) { beep(); speak(a.headline + " " + (a.details || ""), self.lang); }
    });
    this.first = false;
  };

  // The hall's panels, one per room of the document in its order: those of rooms no longer
  // shown go, a room shown for the first time gets a panel from the template.
  Clock.prototype.panels = function (rooms) {
    var holder = this.root.querySelector("[data-rooms]");
    var template = this.root.querySelector("template[data-room-template]");
    if (!holder || !template) return;
    var ids = rooms.map(function (room) { return String(room.id); });
    var have = Array.prototype.slice.call(holder.querySelectorAll("[data-room]"));
    if (have.map(function (el) { return el.getAttribute("data-room"); }).join() === ids.join()) return;
    var byId = {};
    have.forEach(function (el) { byId[el.getAttribute("data-room")] = el; el.remove(); });
    var empty = holder.querySelector("[data-no-rooms]");
    ids.forEach(function (id) {
      var el = byId[id];
      if (!el) {
        el = template.content.querySelector("[data-room]").cloneNode(true);
        el.setAttribute("data-room", id);
      }
      holder.insertBefore(el, empty);
    });
    if (empty) empty.hidden = ids.length > 0;
  };

  Clock.prototype.render = function () {
    this.banner();
    if (!this.doc) return;
    var self = this;
    this.panels(this.doc.rooms);
    var follow = this.root.querySelector("[data-room-follow]");
    if (follow && this.doc.rooms.length) follow.setAttribute("data-room", this.doc.rooms[0].id);
    this.doc.rooms.forEach(function (room) {
      var el = self.root.querySelector('[data-room="' + room.id + '"]');
      if (!el) return;
      var name = el.querySelector("[data-name]");
      if (name) name.textContent = room.name;
      if (el.hasAttribute("aria-label")) el.setAttribute("aria-label", room.name);
      var session = el.querySelector("[data-session]"), part = el.querySelector("[data-session-part]");
      if (session) session.textContent = room.session_name || "";
      if (part) part.hidden = !room.session_name;
      var planned = el.querySelector("[data-rounds]");
      if (planned) planned.textContent = room.rounds;
      var digits = el.querySelector("[data-digits]");
      var ms = self.remaining(room);
      if (digits) digits.textContent = format(ms);
      el.setAttribute("data-state", room.state || "none");
      el.classList.toggle("urgent", room.state === "running" && ms <= 60000);
      var rnd = el.querySelector("[data-round]");
      if (rnd) rnd.textContent = room.round || "—";
      var st = el.querySelector("[data-state-label]");
      var timeUp = room.state === "running" && ms <= 0 && self.root.getAttribute("data-time-up");
      el.classList.toggle("time-up", !!timeUp);
      if (st) st.textContent = timeUp || st.getAttribute("data-label-" + (room.state || "none")) || "";
      var head = el.querySelector("[data-headline]"), det = el.querySelector("[data-details]");
      var news = room.announcement && !stale(room.announcement, room, ms) ? room.announcement : null;
      if (head) head.textContent = news ? news.headline : "";
      if (det) det.textContent = news ? news.details : "";
    });
  };

  Clock.prototype.start = function () {
    var self = this;
    this.recall();
    // Back online: the hall's phones all come back at once; each waits a random moment of
    // up to ONLINE_SPREAD_MS before its first poll, so that they do not ask in one instant.
    window.addEventListener("online", function () {
      clearTimeout(self.timer);
      self.timer = setTimeout(function () { self.poll(); }, Math.random() * ONLINE_SPREAD_MS);
    });
    this.poll();
    setInterval(function () { self.render(); }, 250);
  };

  window.PreferenceClock = { Clock: Clock, format: format };
  document.addEventListener("DOMContentLoaded", function () {
    var nodes = document.querySelectorAll("[data-clock-url]");
    for (var i = 0; i < nodes.length; i++) {
      var c = new Clock(nodes[i]);
      nodes[i].preferenceClock = c;
      c.start();
    }
  });
})();

/* The director's live console on the room page: polls the room's console.json and, when its
   version changed, redraws the grid of sheets, the counts, the disputes and late tables, the
   round pills and the publish button in place. The server-rendered page is the baseline
   without JS. Another director's correction or confirmation shows here within one poll; when
   the clock controls would look different (another director paused the round, a round
   ended), they and the announcements are fetched again from the page itself. */
(function () {
  "use strict";

  function node(tag, attrs, children) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) n.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      n.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return n;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

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
    this.legend = {};
    var self = this;
    root.querySelectorAll("[data-legend] [data-state]").forEach(function (li) {
      self.legend[li.getAttribute("data-state")] = {
        sign: li.getAttribute("data-sign"),
        label: li.getAttribute("data-label"),
        count: li.querySelector("[data-count]")
      };
    });
    this.grid = root.querySelector("#console-grid");
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
      cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" }
    })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();  // a login page (session expired) is not JSON: shown as offline
      })
      .then(function (doc) {
        self.online();
        if (doc.changed) self.render(doc);
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

  Console.prototype.render = function (doc) {
    this.version = doc.version;
    this.root.setAttribute("data-version", doc.version);
    this.renderGrid(doc);
    this.renderCounts(doc);
    this.renderList(this.root.querySelector("[data-disputes]"), doc.disputes, function (d) {
      return { round: d.round, table: d.table, deal: d.deal };
    });
    this.renderList(this.root.querySelector("[data-late]"), doc.late, function (t) {
      return { round: t.round, table: t.table, missing: t.missing };
    });
    this.renderRounds(doc);
    this.root.querySelectorAll("[data-publish] form").forEach(function (form) {
      form.hidden = (form.getAttribute("data-public") === "1") !== doc.results_public;
    });
    if (doc.controls !== this.controls) this.reloadParts();
    if (this.status) {
      var t = new Date();
      var pad = function (n) { return (n < 10 ? "0" : "") + n; };
      this.status.textContent = this.status.getAttribute("data-label-updated") + " " +
        pad(t.getHours()) + ":" + pad(t.getMinutes()) + ":" + pad(t.getSeconds());
    }
    this.root.dispatchEvent(new CustomEvent("console:update", { detail: doc }));
  };

  Console.prototype.renderGrid = function (doc) {
    var grid = this.grid;
    if (!grid) return;
    var round = grid.querySelector("[data-grid-round]");
    if (round) round.textContent = doc.round === null ? "—" : doc.round;
    var state = grid.querySelector("[data-grid-state]");
    if (state) state.textContent = state.getAttribute("data-label-" + doc.round_state) || "";
    var head = grid.querySelector("thead tr");
    var deals = head.querySelectorAll("th.deal");
    if (deals.length !== doc.deals.length) {
      deals.forEach(function (th) { th.remove(); });
      var word = grid.getAttribute("data-label-deal");
      var players = head.querySelector("th.players");
      doc.deals.forEach(function (n) {
        head.insertBefore(node("th", { scope: "col", "class": "deal" }, [word + " " + n]), players);
      });
    }
    var body = grid.querySelector("[data-grid-body]");
    var self = this;
    var rows = doc.rows.map(function (row) { return self.rowNode(row, doc.deals.length, body); });
    body.replaceChildren.apply(body, rows);
    var empty = this.root.querySelector("[data-grid-empty]");
    if (empty) empty.hidden = doc.rows.length > 0;
  };

  Console.prototype.rowNode = function (row, columns, body) {
    var legend = this.legend;
    var tr = node("tr", { "data-table": row.table, "class": row.late ? "late" : null });
    var th = node("th", { scope: "row", "class": "table" }, [
      node("a", { href: row.url }, [String(row.table)]), " ",
      node("span", { "class": "set" }, [this.grid.getAttribute("data-label-set").replace("{set}", row.set)])
    ]);
    if (row.late) {
      th.appendChild(document.createTextNode(" "));
      th.appendChild(node("span", { "class": "late-flag state-late" }, [
        node("span", { "class": "sign", "aria-hidden": "true" }, [legend.late.sign]),
        " " + legend.late.label
      ]));
    }
    tr.appendChild(th);
    var lateLabel = this.grid.getAttribute("data-label-late-entry");
    var unprovenLabel = this.grid.getAttribute("data-label-unproven");
    row.cells.forEach(function (cell) {
      var look = legend[cell.state] || { sign: "", label: cell.state };
      var key = cell.state + "|" + (cell.version === null ? "" : cell.version) + "|" + (cell.late ? "late" : "") +
        "|" + (cell.unproven ? "unproven" : "");
      var before = body.querySelector('tr[data-table="' + row.table + '"] td[data-deal="' + cell.deal + '"]');
      var changed = before && before.getAttribute("data-key") !== key;
      // A sheet the table wrote after «Конец тура!» carries a late mark besides its state.
      var link = [node("span", { "class": "sign", "aria-hidden": "true" }, [look.sign]), " " + cell.code];
      // And one entered on the table's device without a PIN, an unproven-entry mark.
      if (cell.late) link.push(node("span", { "class": "late-mark", "aria-hidden": "true" }, ["◔"]));
      if (cell.unproven) link.push(node("span", { "class": "unproven-mark", "aria-hidden": "true" }, ["?"]));
      var marks = (cell.late ? ", " + lateLabel : "") + (cell.unproven ? ", " + unprovenLabel : "");
      link.push(node("span", { "class": "sr-only" }, [": " + look.label + marks]));
      tr.appendChild(node("td", {
        "class": "cell state-" + cell.state + (cell.late ? " late-entry" : "") + (cell.unproven ? " unproven" : "") +
          (changed ? " changed" : ""),
        "data-state": cell.state, "data-deal": cell.deal, "data-key": key
      }, [node("a", { href: cell.url, title: look.label + marks.replace(/, /g, " · ") }, link)]));
    });
    tr.querySelectorAll("td.changed").forEach(function (td) {
      td.addEventListener("animationend", function () { td.classList.remove("changed"); });
    });
    for (var i = row.cells.length; i < columns; i++) tr.appendChild(node("td", { "class": "cell none" }));
    tr.appendChild(node("td", { "class": "players" }, row.players.map(function (p) {
      return node("span", {}, [node("b", {}, [p.position]), " " + p.name]);
    })));
    return tr;
  };

  Console.prototype.renderCounts = function (doc) {
    var legend = this.legend;
    Object.keys(doc.counts).forEach(function (state) {
      if (legend[state] && legend[state].count) legend[state].count.textContent = doc.counts[state];
    });
  };

  Console.prototype.renderList = function (list, items, values) {
    if (!list) return;
    var text = list.getAttribute("data-text");
    list.replaceChildren.apply(list, items.map(function (item) {
      return node("li", {}, [node("a", { href: item.url }, [fill(text, values(item))])]);
    }));
    var empty = list.parentNode.querySelector("[data-empty]");
    if (empty) empty.hidden = items.length > 0;
  };

  Console.prototype.renderRounds = function (doc) {
    this.root.querySelectorAll("[data-round-pills] a[data-round]").forEach(function (a) {
      var current = String(doc.round) === a.getAttribute("data-round");
      a.classList.toggle("current", current);
      if (current) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    });
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

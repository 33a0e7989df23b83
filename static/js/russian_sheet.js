/* The Russian sheet follows what is typed (templates/games/russian/sheet.html; the rules:
   docs/game.md §9.3). Without JavaScript every select offers every decision and the server
   names a broken rule; with it:
   - after a numeric contract the defenders decide in their order, the declarer's left first
     (the active seats clockwise: #ru-sheet's data-ring): вист or пас; полвиста only for the
     second, only on a 6 or a 7 (data-half-levels), only after the first passed; at 6♠ with
     «Сталинград» (data-stalingrad) only вист;
   - мизер, распасы and a checked 10 (data-ten) take no decisions: the group is hidden;
   - the tricks shown are those the outcome needs: the declarer's and each whister's (a
     lone whister's are all the defence's); for мизер and a checked 10 the declarer's; for
     распасы every seat's; none when both pass or on полвиста.
   A hidden field is disabled, so it is not sent, and keeps its value for when it comes back.
   Field names and ids are the server's own. No library. */
(function () {
  "use strict";

  function setUp(sheet) {
    var form = sheet.closest("form");
    var defenceGroup = document.getElementById("group-defenders");
    var tricksGroup = document.getElementById("group-tricks");
    if (!form || !defenceGroup || !tricksGroup) return;
    var ring = (sheet.getAttribute("data-ring") || "").split(" ").filter(Boolean);
    var tenChecked = sheet.getAttribute("data-ten") === "checked";
    var stalingrad = sheet.hasAttribute("data-stalingrad");
    var halfLevels = (sheet.getAttribute("data-half-levels") || "").split(" ");
    var words = JSON.parse(sheet.getAttribute("data-decisions") || "[]");
    var firstWord = sheet.getAttribute("data-first") || "";
    var secondWord = sheet.getAttribute("data-second") || "";
    var grid = defenceGroup.querySelector(".seat-grid");

    function el(id) { return document.getElementById(id); }
    function choice(seat) { return el("id_defence_" + seat); }
    function chosen(name) {
      var on = Array.prototype.filter.call(form.elements, function (x) {
        return x.name === name && x.type === "radio" && x.checked;
      })[0];
      return on ? on.value : "";
    }
    // Shown or hidden, its fields sent or not.
    function show(box, on) {
      if (!box) return;
      box.hidden = !on;
      Array.prototype.forEach.call(box.querySelectorAll("input, select, textarea"), function (x) {
        if (x.type !== "hidden") x.disabled = !on;
      });
    }
    var blank = (function () {
      var any = choice(ring[0]);
      var first = any && any.options[0];
      return first && first.value === "" ? first.text : "—";
    })();
    // The select offers exactly ``allowed`` (in the sheet's order); a value no longer
    // allowed is let go (and the change told, so that the draft keeps it).
    function offer(seat, allowed) {
      var select = choice(seat);
      if (!select) return;
      var wanted = [""].concat(words.map(function (w) { return w[0]; }).filter(function (v) {
        return allowed.indexOf(v) >= 0;
      }));
      var now = Array.prototype.map.call(select.options, function (o) { return o.value; });
      if (now.join(" ") === wanted.join(" ")) return;
      var value = select.value;
      select.textContent = "";
      wanted.forEach(function (v) {
        var label = v ? words.filter(function (w) { return w[0] === v; })[0][1] : blank;
        select.appendChild(new Option(label, v));
      });
      select.value = wanted.indexOf(value) >= 0 ? value : "";
      if (select.value !== value) select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    function say(seat, which) {
      var box = el("f-defence_" + seat);
      var span = box && box.querySelector(".ru-which");
      if (span) span.textContent = which ? " (" + which + ")" : "";
    }

    function contractOf(code) {
      if (!code) return null;
      if (code === "passed" || code === "misere") return { code: code, level: null };
      var level = parseInt(code, 10);
      return { code: code, level: level, checkedTen: level === 10 && tenChecked };
    }

    function update() {
      var contract = contractOf(chosen("contract"));
      var declarer = chosen("declarer");
      var at = ring.indexOf(declarer);
      var order = at < 0 ? ring.slice() : [ring[(at + 1) % 3], ring[(at + 2) % 3]];
      var numeric = contract && contract.level !== null;

      // The defenders' decisions: none for мизер, распасы and a checked 10.
      var decides = !contract || (numeric && !contract.checkedTen);
      show(defenceGroup, decides);
      // The defenders in their order, then the declarer's own select (hidden).
      var boxes = order.concat(ring.filter(function (s) { return order.indexOf(s) < 0; }))
        .map(function (seat) { return el("f-defence_" + seat); }).filter(Boolean);
      var placed = grid ? Array.prototype.filter.call(grid.children, function (x) {
        return x.hasAttribute("data-seat");
      }) : boxes;
      if (placed.some(function (box, i) { return box !== boxes[i]; })) {
        boxes.forEach(function (box) { grid.appendChild(box); });
      }
      if (at >= 0) show(el("f-defence_" + declarer), false);
      if (decides) {
        var half = numeric && halfLevels.indexOf(String(contract.level)) >= 0;
        var forced = numeric && stalingrad && contract.code === "6S";
        order.forEach(function (seat, position) {
          show(el("f-defence_" + seat), true);
          var allowed = forced ? ["whist"] : ["whist", "pass"];
          // Полвиста: the second defender's, after the first passed (any seat's while the
          // declarer, and so the order, is not known).
          if (half && !forced && (at < 0 || (position === 1 && choice(order[0]).value === "pass"))) {
            allowed.push("half");
          }
          offer(seat, allowed);
          say(seat, at < 0 ? "" : position === 0 ? firstWord : secondWord);
        });
      }

      // The tricks the outcome needs.
      var needed;
      if (!contract || contract.code === "passed" || at < 0) {
        needed = ring.slice();
      } else if (!numeric || contract.checkedTen) {
        needed = [declarer];  // мизер, a checked 10
      } else {
        var said = order.map(function (seat) { return choice(seat) ? choice(seat).value : ""; });
        if (said.indexOf("half") >= 0 || (said[0] === "pass" && said[1] === "pass")) needed = [];
        else needed = [declarer].concat(order.filter(function (seat, i) { return said[i] !== "pass"; }));
      }
      show(tricksGroup, needed.length > 0);
      ring.forEach(function (seat) { show(el("f-tricks_" + seat), needed.indexOf(seat) >= 0); });
    }

    var busy = false;
    form.addEventListener("change", function (e) {
      var name = e.target && e.target.name;
      if (busy || !name) return;
      if (name !== "declarer" && name !== "contract" && name.indexOf("defence_") !== 0) return;
      busy = true;
      try { update(); } finally { busy = false; }
    });
    update();
  }

  function start() {
    // After the page's own scripts: table.js takes the draft back on DOMContentLoaded.
    Array.prototype.forEach.call(document.querySelectorAll("#ru-sheet"), setUp);
  }
  // Loaded with defer (the sheet's own script): it runs before DOMContentLoaded, whose
  // listeners table.js registered first.
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();

/* The whole-table artificial scores form (templates/scoring/adjustments.html): the table is
   chosen from the chosen round's tables, and only the chosen table's seats are offered — on
   one deal, only the seats that play it (a dealer at a table of four sits his deal out).
   The form carries every round's tables (data-adjust-layout, scoring.sheets.forms.RoundTable);
   the server checks the same rules when this script does not run. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-adjust-layout]");
    if (!form) return;
    var layout = JSON.parse(form.getAttribute("data-adjust-layout") || "{}");
    var round = form.querySelector("[data-adjust-round]");
    var table = form.querySelector("[data-adjust-table]");
    var deal = form.querySelector("[data-adjust-deal]");
    if (!round || !table || !deal) return;

    function tables() {
      return layout[round.value] || [];
    }

    function chosen() {
      var number = parseInt(table.value, 10);
      return tables().filter(function (t) { return t.number === number; })[0] || null;
    }

    function fillTables() {
      var keep = table.value;
      while (table.options.length) table.remove(0);
      tables().forEach(function (t) {
        var option = new Option(t.label, String(t.number));
        table.add(option);
      });
      if (tables().some(function (t) { return String(t.number) === keep; })) table.value = keep;
    }

    function offer() {
      var t = chosen();
      var count = t ? t.deals.length : 4;
      Array.prototype.forEach.call(deal.options, function (option) {
        var n = parseInt(option.value, 10);
        var out = !isNaN(n) && n > count;
        option.hidden = out;
        option.disabled = out;
      });
      if (deal.selectedOptions.length && deal.selectedOptions[0].disabled) deal.value = "";
      var n = parseInt(deal.value, 10);
      var seats = t ? t.seats : "WNES";
      if (t && !isNaN(n) && t.deals[n - 1]) {
        var active = t.deals[n - 1];
        seats = seats.split("").filter(function (p) { return active.indexOf(p) >= 0; }).join("");
      }
      form.querySelectorAll("[data-seat]").forEach(function (box) {
        var on = seats.indexOf(box.getAttribute("data-seat")) >= 0;
        var select = box.querySelector("select");
        if (!on && box.classList.contains("has-error")) on = true; // its error stays in sight
        box.hidden = !on;
        if (select) {
          select.disabled = !on;
          if (!on) select.value = "";
        }
      });
    }

    round.addEventListener("change", function () { fillTables(); offer(); });
    table.addEventListener("change", offer);
    deal.addEventListener("change", offer);
    offer();
  });
})();

/* The talon picker (templates/scoring/_talon_picker.html): two cards stay ticked — a third
   tap lets go of the first one ticked; the count is said aloud. A picker that follows the
   contract (data-contract-field: a select; data-contract-name: radio buttons, the Russian
   grid) shows only for the contracts that take the talon (data-numeric); hidden, its boxes
   are disabled so they are not sent, and come back as they were. No library. */
(function () {
  "use strict";
  function setUp(picker) {
    var boxes = Array.prototype.slice.call(picker.querySelectorAll('input[type="checkbox"]'));
    var count = picker.querySelector(".talon-count");
    var order = boxes.filter(function (b) { return b.checked; });
    function say() {
      if (!count) return;
      var n = boxes.filter(function (b) { return b.checked; }).length;
      count.textContent = (count.getAttribute("data-count-text") || "%(n)s / 2").replace("%(n)s", n);
    }
    boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        // Boxes ticked meanwhile by the page (a draft taken back) count as ticked first.
        order = order.filter(function (b) { return b !== box && b.checked; });
        boxes.forEach(function (b) { if (b.checked && b !== box && order.indexOf(b) < 0) order.unshift(b); });
        if (box.checked) order.push(box);
        while (order.length > 2) {
          var first = order.shift();
          first.checked = false;
          first.dispatchEvent(new Event("input", { bubbles: true }));
        }
        say();
      });
    });
    say();
    // The contract is a select (data-contract-field, its id) or a group of radio buttons
    // (data-contract-name, their name: the Russian grid).
    var fieldId = picker.getAttribute("data-contract-field");
    var name = picker.getAttribute("data-contract-name");
    var form = picker.closest("form");
    var contracts = [];
    if (fieldId && document.getElementById(fieldId)) contracts = [document.getElementById(fieldId)];
    else if (name && form) {
      contracts = Array.prototype.filter.call(form.elements, function (el) {
        return el.name === name && el.type === "radio";
      });
    }
    if (!contracts.length) return;
    var numeric = (picker.getAttribute("data-numeric") || "").split(" ");
    function chosen() {
      if (contracts[0].type !== "radio") return contracts[0].value;
      var on = contracts.filter(function (r) { return r.checked; })[0];
      return on ? on.value : "";
    }
    function follow() {
      var shown = numeric.indexOf(chosen()) >= 0;
      picker.hidden = !shown;
      boxes.forEach(function (b) { b.disabled = !shown; });
    }
    contracts.forEach(function (c) { c.addEventListener("change", follow); });
    follow();
  }
  function start() {
    // After the page's own scripts (table.js takes the draft back on DOMContentLoaded).
    Array.prototype.forEach.call(document.querySelectorAll("[data-talon-picker]"), setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

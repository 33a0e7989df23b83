/* The talon picker (templates/scoring/_talon_picker.html): two cards stay ticked — a third
   tap lets go of the first one ticked; the count is said aloud. A picker that follows the
   contract (data-contract-field) shows only for a numeric contract; hidden, its boxes are
   disabled so they are not sent, and come back as they were. No library. */
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
    var fieldId = picker.getAttribute("data-contract-field");
    var contract = fieldId && document.getElementById(fieldId);
    if (!contract) return;
    var numeric = (picker.getAttribute("data-numeric") || "").split(" ");
    function follow() {
      var shown = numeric.indexOf(contract.value) >= 0;
      picker.hidden = !shown;
      boxes.forEach(function (b) { b.disabled = !shown; });
    }
    contract.addEventListener("change", follow);
    follow();
  }
  function start() {
    // After the page's own scripts (table.js takes the draft back on DOMContentLoaded).
    Array.prototype.forEach.call(document.querySelectorAll("[data-talon-picker]"), setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

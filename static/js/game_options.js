// The event form's game (templates/director/event_form.html): the Russian game's options
// are shown only for a Russian convention, and choosing a convention sets its defaults
// (the select's data-game-defaults). Without JavaScript the options stay shown, at «as the
// convention has it», and the server fills the convention's defaults in.
(function () {
  "use strict";
  var game = document.querySelector("select[data-game-defaults]");
  var options = document.getElementById("game-options");
  if (!game || !options) return;
  var defaults = JSON.parse(game.getAttribute("data-game-defaults"));
  var austrian = game.getAttribute("data-austrian");
  var form = game.form;

  function show() {
    options.hidden = game.value === austrian;
  }

  // Every option to the convention's default; ``blankOnly``: only those left at «as the
  // convention has it» (a page opened with its options as they were sent or saved).
  function preselect(blankOnly) {
    var chosen = defaults[game.value];
    if (!chosen) return;
    Object.keys(chosen).forEach(function (name) {
      var field = form.elements[name];
      if (field && !field.disabled && (!blankOnly || field.value === "")) {
        field.value = chosen[name];
      }
    });
    var stalingrad = form.elements.stalingrad;
    if (!blankOnly && stalingrad && !stalingrad.disabled) stalingrad.checked = false;
  }

  game.addEventListener("change", function () {
    preselect(false);
    show();
  });
  preselect(true);
  show();
})();

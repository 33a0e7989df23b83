// The event form's game (templates/director/event_form.html): the Russian game's options
// are shown only for a Russian convention, the Austrian game's fields (pot, stake, suit
// order) only for the Austrian game, and choosing a convention sets its defaults (the
// select's data-game-defaults). Without JavaScript both groups stay shown, each saying
// which game it is for; the options at «as the convention has it», and the server fills
// the convention's defaults in.
(function () {
  "use strict";
  var game = document.querySelector("select[data-game-defaults]");
  var options = document.getElementById("game-options");
  var austrianOptions = document.getElementById("austrian-options");
  if (!game || !options) return;
  var defaults = JSON.parse(game.getAttribute("data-game-defaults"));
  var austrian = game.getAttribute("data-austrian");
  var form = game.form;

  // Hidden, a game's fields are still sent: they keep their values (the form needs them).
  function show() {
    options.hidden = game.value === austrian;
    if (austrianOptions) austrianOptions.hidden = game.value !== austrian;
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

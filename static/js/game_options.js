// The event form's game (templates/director/event_form.html): each game's own part (its
// fieldset's data-games: the conventions that show it) is shown only when one of them is
// chosen, and choosing a convention sets its defaults (the select's data-game-defaults).
// Without JavaScript every part stays shown, each saying which game it is for; the options
// at «as the convention has it», and the server fills the convention's defaults in.
(function () {
  "use strict";
  var game = document.querySelector("select[data-game-defaults]");
  if (!game) return;
  var parts = Array.prototype.slice.call(document.querySelectorAll(".game-part[data-games]"));
  var defaults = JSON.parse(game.getAttribute("data-game-defaults"));
  var form = game.form;

  // Hidden, a game's fields are still sent: they keep their values (the form needs them).
  function show() {
    parts.forEach(function (part) {
      part.hidden = part.getAttribute("data-games").split(" ").indexOf(game.value) < 0;
    });
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

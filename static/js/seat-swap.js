// Seat tonight's tables: tap a player, then one at another table, and they swap at once (the
// form's "Swap" button is pressed for you). Without this script, tick the two and tap "Swap".
(function () {
  "use strict";
  var form = document.getElementById("seat-form");
  var button = document.getElementById("swap");
  if (!form || !button) { return; }
  var picks = Array.prototype.slice.call(form.querySelectorAll("input[name=pick]"));
  picks.forEach(function (input) {
    input.addEventListener("change", function () {
      var ticked = picks.filter(function (box) { return box.checked; });
      if (ticked.length === 2) { button.click(); }
    });
  });
})();

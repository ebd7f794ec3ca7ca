// Seat tonight's tables: tap a player, then one at another table, and they swap at once (the
// form's "Swap" button is pressed for you); a second tap at the same table moves the choice
// there. Without this script, tick the two and tap "Swap".
(function () {
  "use strict";
  var form = document.getElementById("seat-form");
  var button = document.getElementById("swap");
  if (!form || !button) { return; }
  var picks = Array.prototype.slice.call(form.querySelectorAll("input[name=pick]"));
  function table(box) { return box.closest("section"); }
  picks.forEach(function (input) {
    input.addEventListener("change", function () {
      if (!input.checked) { return; }
      picks.forEach(function (box) {
        if (box !== input && box.checked && table(box) === table(input)) { box.checked = false; }
      });
      var ticked = picks.filter(function (box) { return box.checked; });
      if (ticked.length === 2) { button.click(); }
    });
  });
})();

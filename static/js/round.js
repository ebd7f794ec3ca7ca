// Round entry: "went out" puts 0 in that player's points; the first problem gets the focus;
// the save button cannot be pressed twice (the server also refuses a second save).
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  form.addEventListener("change", function (event) {
    var radio = event.target;
    if (radio.name !== "went_out" || !radio.dataset.seat) { return; }
    var points = document.querySelector("#seat-" + radio.dataset.seat + " input.points");
    if (points && points.value.trim() === "") { points.value = "0"; }
  });
  form.addEventListener("submit", function () {
    var buttons = form.querySelectorAll("button[type=submit]");
    window.setTimeout(function () {
      buttons.forEach(function (b) { b.disabled = true; b.setAttribute("aria-busy", "true"); });
    }, 0);
    // A dropped connection must not leave the button dead: allow a retry after a while.
    window.setTimeout(function () {
      buttons.forEach(function (b) { b.disabled = false; b.removeAttribute("aria-busy"); });
    }, 8000);
  });
  var summary = document.getElementById("error-summary");
  if (summary) { summary.focus(); }
})();

// Photo check: reading starts as soon as a photo is taken; tapping a tile on the photo selects
// its text in the tiles box for correcting. Without this script the buttons do the same work.
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  form.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.classList || !input.classList.contains("photo-input") || !input.files.length) { return; }
    if (input.files[0].size > 15 * 1024 * 1024) {
      window.alert(t("That photo is bigger than 15 MB. Take it again at a lower resolution."));
      input.value = "";
      return;
    }
    var pick = input.parentElement.querySelector(".photo-pick");
    if (pick) { pick.textContent = t("Reading the photo…"); }
    var button = input.parentElement.querySelector(".photo-read");
    if (button && form.requestSubmit) { form.requestSubmit(button); }
  });
  form.addEventListener("click", function (event) {
    var mark = event.target.closest(".tile-mark");
    if (!mark) { return; }
    var box = document.getElementById("seat_" + mark.dataset.seat + "-tiles");
    if (!box) { return; }
    event.preventDefault();
    var details = box.closest("details");
    if (details) { details.open = true; }
    var index = parseInt(mark.dataset.tile, 10);
    var pieces = box.value.split(",");
    var start = 0;
    for (var i = 0; i < index && i < pieces.length; i++) { start += pieces[i].length + 1; }
    var piece = pieces[index] || "";
    var lead = piece.length - piece.replace(/^\s+/, "").length;
    box.focus();
    box.setSelectionRange(start + lead, start + piece.length);
  });
  document.querySelectorAll(".photo-read").forEach(function (b) { b.hidden = true; });
})();

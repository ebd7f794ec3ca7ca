// Seating a league table: the players sit in the order they are tapped. Each chosen chip shows
// its seat number, and the hidden "seat_order" field carries the order to the server. Without
// this script the seats follow the order of the list.
(function () {
  "use strict";
  var box = document.getElementById("roster-chips");
  var field = document.getElementById("seat_order");
  if (!box || !field) { return; }
  var boxes = Array.prototype.slice.call(box.querySelectorAll("input[type=checkbox][name=players]"));
  var order = field.value.split(",").filter(function (id) {
    return boxes.some(function (input) { return input.checked && input.value === id; });
  });
  // Ticked but not in the order yet (a page rendered again after a refusal): after the others.
  boxes.forEach(function (input) {
    if (input.checked && order.indexOf(input.value) < 0) { order.push(input.value); }
  });
  var hint = document.querySelector("[data-seat-hint]");
  if (hint) { hint.textContent = hint.dataset.seatHint; }

  function show() {
    field.value = order.join(",");
    boxes.forEach(function (input) {
      var label = input.closest("label");
      var mark = label.querySelector(".chip-seat");
      var seat = order.indexOf(input.value);
      if (seat < 0) {
        if (mark) { mark.remove(); }
        return;
      }
      if (!mark) {
        mark = document.createElement("span");
        mark.className = "chip-seat";
        label.appendChild(mark);
      }
      mark.textContent = t("seat %(n)s", { n: seat + 1 });
    });
  }

  boxes.forEach(function (input) {
    input.addEventListener("change", function () {
      var at = order.indexOf(input.value);
      if (input.checked && at < 0) { order.push(input.value); }
      if (!input.checked && at >= 0) { order.splice(at, 1); }
      show();
    });
  });
  show();
})();

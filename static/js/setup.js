// Setup form: seat a recent name or move a seat without a round trip. The buttons work
// without this script too (the server rearranges the form).
(function () {
  "use strict";
  var form = document.getElementById("setup-form");
  if (!form) { return; }
  function nameInputs() {
    return Array.prototype.slice.call(form.querySelectorAll(".seat-row input[type=text]"));
  }
  form.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    var inputs = nameInputs();
    if (button.name === "add_name") {
      var taken = inputs.some(function (i) { return i.value.trim().toLowerCase() === button.value.toLowerCase(); });
      var empty = inputs.filter(function (i) { return !i.value.trim(); })[0];
      if (taken || !empty) { return; } // let the server add a seat
      event.preventDefault();
      empty.value = button.value;
      button.disabled = true;
      return;
    }
    var match = /^(up|down):(\d+)$/.exec(button.value || "");
    if (button.name === "action" && match) {
      var index = parseInt(match[2], 10);
      var other = match[1] === "up" ? index - 1 : index + 1;
      if (!inputs[index] || !inputs[other]) { return; }
      event.preventDefault();
      var swap = inputs[index].value;
      inputs[index].value = inputs[other].value;
      inputs[other].value = swap;
      var radios = form.querySelectorAll("input[name=first_starter]");
      if (radios[index] && radios[other] && (radios[index].checked || radios[other].checked)) {
        var first = radios[index].checked;
        radios[index].checked = radios[other].checked;
        radios[other].checked = first;
      }
      inputs[other].focus();
    }
  });
})();

// Number fields: a tap on a field that already holds a number selects it, so the digits typed
// next replace it ("10", then 8, gives 8, not 108). The tap's own caret comes after focus
// (mouseup/touchend), so the number is selected again once that tap is over; a later tap in
// the field places the caret as usual (to mend one digit).
(function () {
  "use strict";
  var NUMBER = "input[inputmode=numeric], input[type=number]";

  function selectAll(field) {
    if (document.activeElement !== field || field.value === "") { return; }
    try {
      field.select();
    } catch (error) { /* a field type without a selection: nothing to select */ }
  }

  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches(NUMBER) || field.readOnly || field.disabled) { return; }
    selectAll(field);
    // The tap that focused the field places its caret after this; select once more when it ends.
    var again = function () {
      field.removeEventListener("mouseup", again);
      field.removeEventListener("touchend", again);
      window.setTimeout(function () { selectAll(field); }, 0);
    };
    field.addEventListener("mouseup", again);
    field.addEventListener("touchend", again);
    field.addEventListener("blur", function () {
      field.removeEventListener("mouseup", again);
      field.removeEventListener("touchend", again);
    }, { once: true });
  });
})();

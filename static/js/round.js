// Round entry. "Went out" puts 0 in that player's points, and takes that 0 away again when the
// choice moves to someone else; Enter in a points field moves to the next player (past the one
// who went out; it saves from the last); leaving with typed values asks first; the live
// check's verdict sets the red outlines and clears "Nothing was saved yet" once nothing is
// wrong; the first problem gets the focus; the save button cannot be pressed twice (the server
// also refuses a second save).
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  var AUTO = "autoZero";  // data-auto-zero: this 0 was put in by "Went out", not typed

  function pointsOf(seat) {
    return document.querySelector("#seat-" + seat + " input.points");
  }

  form.addEventListener("change", function (event) {
    var radio = event.target;
    if (radio.name !== "went_out") { return; }
    form.querySelectorAll("input.points").forEach(function (points) {
      var seat = points.closest(".seat-entry").id.replace("seat-", "");
      if (points.dataset[AUTO] && seat !== radio.dataset.seat) {
        if (points.value.trim() === "0") { points.value = ""; }
        delete points.dataset[AUTO];
        points.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    var chosen = radio.dataset.seat ? pointsOf(radio.dataset.seat) : null;
    if (chosen && chosen.value.trim() === "") {
      chosen.value = "0";
      chosen.dataset[AUTO] = "yes";
    }
  });

  form.addEventListener("input", function (event) {
    var field = event.target;
    if (field.classList && field.classList.contains("points") && event.isTrusted) {
      delete field.dataset[AUTO];  // typed by a person: theirs now
    }
    if (event.isTrusted) { dirty = true; }
  });

  // The points fields still to type: not the one of the player who went out (already 0).
  function wentOut(points) {
    var radio = points.closest(".seat-entry").querySelector("input[name=went_out]");
    return Boolean(radio && radio.checked);
  }
  function toType(keep) {
    return Array.prototype.filter.call(form.querySelectorAll("input.points"), function (points) {
      return points === keep || !wentOut(points);
    });
  }
  // The keypad's key says "Next" on each field to type but the last, which says "Done".
  function labelKeys() {
    var all = toType(null);
    form.querySelectorAll("input.points").forEach(function (points) {
      points.setAttribute("enterkeyhint", points === all[all.length - 1] ? "done" : "next");
    });
  }
  labelKeys();
  form.addEventListener("change", labelKeys);

  // Enter (the keypad's Next) in a points field: on to the next player's field, past the
  // player who went out; from the last one, save.
  form.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key !== "Enter" || !field.classList || !field.classList.contains("points")) { return; }
    event.preventDefault();
    var all = toType(field);
    var next = all[all.indexOf(field) + 1];
    if (next) {
      next.focus();
      next.select();
    } else {
      var save = form.querySelector("button.save-round");
      if (form.requestSubmit) { form.requestSubmit(save); } else { save.click(); }
    }
  });

  // Leaving a round with typed values asks first; saving does not.
  var dirty = false;
  var saving = false;
  function typedSomething() {
    if (dirty) { return true; }
    return Array.prototype.some.call(form.querySelectorAll("input.points, textarea"), function (f) {
      return f.value.trim() !== "" && f.value !== f.defaultValue;
    });
  }
  document.querySelectorAll("a[data-leave]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (typedSomething() && !window.confirm(t("Leave this round without saving? What you typed will be lost."))) {
        event.preventDefault();
        return;
      }
      saving = true;  // asked already: no second question from the browser
    });
  });
  window.addEventListener("beforeunload", function (event) {
    if (saving || !typedSomething()) { return; }
    event.preventDefault();
    event.returnValue = "";
  });

  // The live check's verdict: red outlines only where a problem is still found, and the
  // "Nothing was saved yet" notice goes once none is.
  document.body.addEventListener("htmx:afterSettle", function () {
    var anyInvalid = false;
    form.querySelectorAll(".seat-feedback").forEach(function (feedback) {
      var points = feedback.closest(".seat-entry").querySelector("input.points");
      var invalid = feedback.dataset.invalid === "true";
      anyInvalid = anyInvalid || invalid;
      if (invalid) { points.setAttribute("aria-invalid", "true"); } else { points.removeAttribute("aria-invalid"); }
    });
    var round = document.getElementById("round-feedback");
    anyInvalid = anyInvalid || (round && round.dataset.invalid === "true");
    var summary = document.getElementById("error-summary");
    if (summary && summary.classList.contains("error") && !anyInvalid) { summary.remove(); }
  });

  form.addEventListener("submit", function () {
    saving = true;
    var buttons = form.querySelectorAll("button[type=submit]");
    window.setTimeout(function () {
      buttons.forEach(function (b) { b.disabled = true; b.setAttribute("aria-busy", "true"); });
    }, 0);
    // A dropped connection must not leave the button dead: allow a retry after a while.
    window.setTimeout(function () {
      saving = false;
      buttons.forEach(function (b) { b.disabled = false; b.removeAttribute("aria-busy"); });
    }, 8000);
  });
  var summary = document.getElementById("error-summary");
  if (summary) { summary.focus(); }
})();

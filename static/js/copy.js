// "Copy as text": copies the summary to the clipboard. Without this script the text stays
// selectable in its box.
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var source = document.getElementById(button.dataset.copy);
    if (!source) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var done = function () { button.textContent = t("Copied!"); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(source.value).then(done, function () {
          source.select(); document.execCommand("copy"); done();
        });
      } else {
        source.select(); document.execCommand("copy"); done();
      }
    });
  });
})();

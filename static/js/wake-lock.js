// Keep the screen on while the table view is open (Screen Wake Lock API, where the browser has it).
(function () {
  "use strict";
  if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) { return; }
  var lock = null;
  function acquire() {
    if (document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      document.documentElement.setAttribute("data-awake", "yes");
      sentinel.addEventListener("release", function () {
        document.documentElement.removeAttribute("data-awake");
      });
    }).catch(function () { /* not allowed now (battery saver): the page works anyway */ });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && (lock === null || lock.released)) { acquire(); }
  });
  acquire();
})();

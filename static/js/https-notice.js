// Over plain HTTP on a name other than localhost (http://clubhouse.lan:5000), the browser gives
// no service worker: the app cannot open without signal nor be installed. Drafts and rounds
// kept without signal still work (they use localStorage, see offline.js). The phone is told
// once, plainly, what it misses and where to read how to get it; the notice is shown on one
// page only (it counts as seen when shown) and "OK" puts it away.
(function () {
  "use strict";
  var SEEN = "scorekeeper:https-notice-seen";
  var notice = document.getElementById("https-notice");
  if (!notice) { return; }
  if (window.isSecureContext && "serviceWorker" in navigator) { return; }
  try {
    if (window.localStorage.getItem(SEEN)) { return; }
    window.localStorage.setItem(SEEN, String(Date.now()));
  } catch (error) {
    return;  // nowhere to remember it: better never than on every page
  }
  notice.hidden = false;
  var ok = notice.querySelector("[data-dismiss]");
  if (ok) {
    ok.addEventListener("click", function () { notice.hidden = true; });
  }
})();

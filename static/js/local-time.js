// Show <time data-local> in the phone's own time zone (the server writes UTC), in the page's
// language ("4 Jan, 19:30", "4 ene, 19:30", "4 janv., 19:30"): the phone's own way of writing
// it (en-GB, es-MX) when the phone speaks the page's language, else the language's own.
(function () {
  "use strict";
  var lang = document.documentElement.lang || "";
  var phone = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  var locale = !lang || phone.toLowerCase().split("-")[0] === lang.toLowerCase() ? (phone || undefined) : lang;
  document.querySelectorAll("time[data-local]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    el.textContent = when.toLocaleString(locale, {
      day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
    });
  });
})();

// The scripts' sentences in the page's language. Each script writes its sentences in English
// as t("...") or tn("one ...", "%(num)s ...", n) (placeholders as %(name)s); the catalogs hold
// them with the rest of the app's, and /i18n/<lang>.js (loaded before this file on a page that
// is not in English) hands this file the translations as window.SK_I18N.
(function () {
  "use strict";
  var catalog = window.SK_I18N || null;
  var lang = (catalog && catalog.lang) || document.documentElement.lang || "en";
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;

  function fill(text, params) {
    if (!params) { return text; }
    return text.replace(/%\(([A-Za-z_][A-Za-z0-9_]*)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }
  function lookup(message) {
    var found = catalog && catalog.messages ? catalog.messages[message] : null;
    return typeof found === "string" && found ? found : message;
  }
  // t("Saved on this phone") / t("Round %(n)s", {n: 3})
  window.t = function (message, params) { return fill(lookup(message), params); };
  // tn("%(num)s round waits", "%(num)s rounds wait", n): the language's own plural rule picks.
  window.tn = function (singular, plural, n, params) {
    var all = Object.assign({num: n}, params || {});
    var one = plurals ? plurals.select(n) === "one" : n === 1;
    return fill(lookup(one ? singular : plural), all);
  };
  // Dates and numbers in the page's language.
  window.tLang = lang;
}());

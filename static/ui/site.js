// Every page: a select marked data-submit-on-change submits its form when changed (the
// language switch). A script file, not an onchange attribute: the pages' Content Security
// Policy runs no inline script.
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
}());

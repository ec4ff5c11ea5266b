/* Small enhancements; every page works without them. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".js-only").forEach(function (el) {
      el.hidden = false;
    });
    document.querySelectorAll(".no-js").forEach(function (el) {
      el.hidden = true;
    });
    var box = document.getElementById("only-differences");
    if (box) {
      var table = document.getElementById(box.getAttribute("data-table"));
      var apply = function () {
        if (table) table.classList.toggle("only-differences", box.checked);
      };
      box.addEventListener("change", apply);
      apply();
    }
    // Say so when a wide table has more columns than the screen shows.
    var hints = function () {
      document.querySelectorAll(".scroll-hint").forEach(function (hint) {
        var wrap = hint.nextElementSibling;
        if (wrap) hint.hidden = wrap.scrollWidth <= wrap.clientWidth + 1;
      });
    };
    window.addEventListener("resize", hints);
    hints();
  });
})();
